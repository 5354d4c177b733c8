// The estimate-only module's stand-in for core/api/max_batch_memo.cpp: every search runs afresh.
// That module answers the page's first result and the embed, one estimate at a time, and every
// byte of it is loaded before the first result (docs/performance.md); the full module, the CLI
// and the npm package remember.
#include "core/api/max_batch_memo.h"

namespace paleo {

std::string max_batch_key(const Json&) { return {}; }

std::optional<std::int64_t> remembered_max_batch(const std::string&) { return std::nullopt; }

void remember_max_batch(const std::string&, std::int64_t) {}

}  // namespace paleo
