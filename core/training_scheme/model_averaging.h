#pragma once
// Model averaging and decentralised training (Ben-Nun & Hoefler's survey, sections 6.2 and
// 6.4.1-6.4.2 and Table 8's model-consolidation rows; features K11, K12 and C9 of
// docs/training-schemes.md): local SGD that averages the weights every k steps, elastic
// averaging with a centre variable every k steps (EASGD), gossip with k random peers per step,
// and ensembles (no communication while training).
#include <cstdint>
#include <string>

#include "core/cluster/collectives.h"
#include "core/hardware/cluster.h"

namespace paleo {

enum class AveragingKind { kNone, kLocalSgd, kElastic, kGossip, kEnsemble };

struct Averaging {
  AveragingKind kind = AveragingKind::kNone;
  std::int64_t every = 1;   // local SGD and elastic: steps between exchanges
  std::int64_t peers = 3;   // gossip: peers per step
};

AveragingKind parse_averaging(const std::string& text, const std::string& field);  // none, local_sgd, elastic, gossip, ensemble
const char* averaging_name(AveragingKind k);

// Gossip (Drezner & Barak 1986, as the survey quotes it): with each node talking to random peers,
// a value reaches all m nodes after 1.639 log2 m steps with high probability.
double gossip_rounds(std::int64_t workers);

// Gossip's exchange of a `model_bytes` model with `peers` peers over one link, one after the
// other: peers (a + n b) to send, and averaging what came in (peers n g).
CollectiveCost gossip_exchange(double model_bytes, std::int64_t peers, const Link& link,
                               const CollectiveSettings& settings);

}  // namespace paleo
