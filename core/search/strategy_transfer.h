#pragma once
// t_x of the layer-wise search (docs/layerwise.md): what the slowest device of a consumer's
// configuration lacks of its producer's output. The boxes each device owns and needs are laid out
// once per configuration, and edges of one signature (shapes, window, configurations) share one
// table, so a search intersects each pair of configurations once.
#include <array>
#include <cstddef>
#include <vector>

#include "core/spec/network.h"

namespace paleo {

struct StrategyConfig;
struct StrategyProblem;

// A tensor as [N, H, W, C]; flat tensors [N, D] become [N, 1, 1, D].
std::array<Dim, 4> nhwc_dims(const Shape& s);

// Whether a layer reads every channel of its input for each output channel.
bool mixes_channels(const Layer& l);

// The t_x tables of a problem: one per distinct edge signature, [producer config][consumer config]
// row-major, and for every layer and parent (Layer::parents order) the table of that edge.
struct TransferTables {
  std::vector<std::vector<double>> tables;
  std::vector<std::vector<int>> of_edge;  // [layer][parent slot] -> index in `tables`

  const std::vector<double>& edge(std::size_t layer, std::size_t parent_slot) const {
    return tables[static_cast<std::size_t>(of_edge[layer][parent_slot])];
  }
};

// Every edge's table, from the problem's network, configurations and cluster.
TransferTables transfer_tables(const StrategyProblem& p);

// One entry computed alone, with the same arithmetic as the tables.
double transfer_entry_ms(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                         const StrategyConfig& b);

// The bytes the edge moves for that pair: what every device of the consumer's configuration
// lacks of the producer's output, summed over the devices (the time prices the slowest one).
double transfer_entry_bytes(const StrategyProblem& p, int producer, const StrategyConfig& a, int consumer,
                            const StrategyConfig& b);

}  // namespace paleo
