// `schedlab-cli blend-model`: a checkpoint between two of the same shape, (1 - t) x the first +
// t x the second, weight by weight (WiSE-FT when they are a round's start and its fine-tuned end).

#include "command_table.h"
#include "cli_args.h"
#include "commands.h"

#include "rl/q_network.h"

#include <cstdio>

namespace schedlab::cli {

int runBlendModel(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("blend-model")); !e.empty())
        return fail("blend-model: " + e, 2);
    const auto from = a.value("from"), to = a.value("to"), out = a.value("out");
    if (!from || !to || !out)
        return fail("blend-model: give --from START.slq --to TUNED.slq --t 0.5 --out BLEND.slq", 2);
    std::string error;
    const double t = a.real("t", 0.5, error);
    if (!error.empty() || !(t >= 0 && t <= 1))
        return fail("blend-model: --t must be a number in [0, 1] (the share of --to), not '" + a.value("t").value_or("") + "'", 2);
    auto start = rl::QNetwork::load(*from);
    if (!start)
        return fail(start.error().toString());
    auto tuned = rl::QNetwork::load(*to);
    if (!tuned)
        return fail(tuned.error().toString());
    if (!(start.value()->shape() == tuned.value()->shape()))
        return fail("blend-model: " + *from + " and " + *to + " are networks of different shapes");
    start.value()->mixWith(*tuned.value(), t);
    // The candidate preselection both ranked with; the tuned one's when they differ.
    start.value()->setPreselection(tuned.value()->preselection());
    if (Status s = start.value()->save(*out); !s)
        return fail(s.error().toString());
    std::printf("wrote %s: %.3g x %s + %.3g x %s\n", out->c_str(), 1 - t, from->c_str(), t, to->c_str());
    return 0;
}

} // namespace schedlab::cli
