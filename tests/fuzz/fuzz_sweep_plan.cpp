// libFuzzer target: sweep plan files (store/sweep_plan.h). Any crash, leak, UB or hang is a finding;
// errors are expected outcomes. A plan that reads must be consistent: cells numbered in order, on
// the plan's traces and shards.

#include "fuzz_common.h"

#include "store/sweep_plan.h"

#include <cstdio>
#include <cstdlib>

using namespace schedlab;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, std::size_t size)
{
    static const std::string path = fuzz::inputPath(".sweep");
    if (!fuzz::writeInput(path, data, size))
        return 0;
    auto plan = store::readSweepPlan(path);
    if (!plan)
        return 0;
    for (std::size_t i = 0; i < plan->cells.size(); ++i) {
        const store::SweepCell& c = plan->cells[i];
        if (c.index != int(i) || c.trace < 0 || c.trace >= int(plan->traces.size()) || c.shard < 0 || c.shard >= plan->shards) {
            std::fprintf(stderr, "fuzz invariant broken: cell %zu out of the plan\n", i);
            std::abort();
        }
    }
    std::size_t cells = 0;
    for (int s = 0; s < plan->shards && s < 4096; ++s)
        cells += plan->cellsOf(s).size();
    if (plan->shards <= 4096 && cells != plan->cells.size())
        std::abort();
    return 0;
}
