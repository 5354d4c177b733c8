#pragma once
// The four all-reduce schemes of the original (comm.py): bandwidth only, no latency.
#include <cstdint>
#include <array>
#include <string>

#include "core/hardware/interconnect.h"

namespace paleo {

enum class OriginalScheme { kOneToAll, kTreeAllReduce, kButterflyAllReduce, kButterflyMixing };

constexpr std::array<OriginalScheme, 4> kOriginalSchemes = {
    OriginalScheme::kOneToAll, OriginalScheme::kTreeAllReduce, OriginalScheme::kButterflyAllReduce,
    OriginalScheme::kButterflyMixing};

const char* scheme_name(OriginalScheme scheme);

// ceil(log2(workers)): 0 for one worker.
int tree_height(std::int64_t workers);

// Time of one all-reduce of `bytes` among `workers` over `network`, in ms.
double all_reduce_ms(OriginalScheme scheme, std::int64_t workers, double bytes, const Interconnect& network,
                     double ppp_comm);

}  // namespace paleo
