#include "core/transformer/layout_check.h"

#include <string>

#include "core/base/error.h"

namespace paleo {
namespace {

std::string count_text(std::int64_t n) { return std::to_string(n); }

}  // namespace

void check_training_layout(const TransformerConfig& c, const TrainingOptions& o, std::int64_t devices) {
  const ParallelLayout& p = o.parallel;
  if (c.heads % p.tp != 0)
    throw Error("tensor parallelism " + count_text(p.tp) + " does not divide the " + count_text(c.heads) + " heads", "", "tp");
  if (c.kv_heads % p.tp != 0 && p.tp % c.kv_heads != 0)
    throw Error("tensor parallelism " + count_text(p.tp) + " and the " + count_text(c.kv_heads) +
                    " key/value heads do not divide each other", "", "tp");
  if (p.pp * p.virtual_stages > c.layers)
    throw Error("more pipeline chunks (" + count_text(p.pp * p.virtual_stages) + ") than layers (" +
                    count_text(c.layers) + ")", "", "pp");
  if (p.virtual_stages > 1 && p.pp == 1) throw Error("interleaving needs pipeline parallelism (pp > 1)", "", "virtual_stages");
  if (p.virtual_stages > 1 && o.schedule == "gpipe")
    throw Error("interleaved stages need the 1f1b schedule", "", "virtual_stages");
  if (p.devices() != devices)
    throw Error("tp x pp x dp x cp = " + count_text(p.devices()) + " but the cluster has " + count_text(devices) +
                    " devices", "", "dp");
  if (o.global_batch % (p.dp * o.micro_batch) != 0)
    throw Error("the global batch " + count_text(o.global_batch) + " is not a multiple of dp x micro_batch = " +
                    count_text(p.dp * o.micro_batch), "", "global_batch");
  if (o.seq_len % p.cp != 0)
    throw Error("context parallelism " + count_text(p.cp) + " does not divide the sequence " + count_text(o.seq_len), "", "cp");
  if (p.ep > 1 && !c.moe.enabled()) throw Error("expert parallelism needs a mixture-of-experts model", "", "ep");
  if (p.expert_tp > 1 && !c.moe.enabled())
    throw Error("expert tensor parallelism needs a mixture-of-experts model", "", "expert_tp");
  const std::int64_t stage_ranks = p.tp * p.cp * p.dp;
  if (c.moe.enabled() && (c.moe.experts % p.ep != 0 || stage_ranks % (p.etp() * p.ep) != 0))
    throw Error("expert parallelism " + count_text(p.ep) + " must divide the experts (" + count_text(c.moe.experts) +
                    ") and, times expert_tp (" + count_text(p.etp()) + "), tp x cp x dp (" + count_text(stage_ranks) +
                    ")",
                "", "ep");
  // Below tp each rank routes its own slice of the sequence, as Megatron-Core requires with TP and EP.
  if (c.moe.enabled() && p.etp() < p.tp && !p.sequence_parallel)
    throw Error("expert_tp " + count_text(p.etp()) + " below tp " + count_text(p.tp) + " needs sequence_parallel", "",
                "expert_tp");
  if (o.zero < 0 || o.zero > 3) throw Error("must be 0, 1, 2 or 3", "", "zero");
}

}  // namespace paleo
