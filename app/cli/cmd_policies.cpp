// `schedlab-cli policies`: the placement policies, queue orders, backfilling and run parameters a
// replay accepts (text, or JSON with --json).

#include "cli_args.h"
#include "command_table.h"
#include "commands.h"

#include "policy/placement_policy.h"
#include "policy/queue_policy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace schedlab::cli {

int runPolicies(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("policies")); !e.empty())
        return fail("policies: " + e, 2);
    const auto list = policy::placementPolicies();
    if (args.flag("json")) {
        QJsonArray ties;
        for (policy::TieBreak t : policy::kTieBreaks)
            ties.append(policy::tieBreakName(t));
        QJsonArray arr;
        for (const auto& p : list)
            arr.append(QJsonObject { { "name", QString::fromStdString(p.name) }, { "kind", QString::fromStdString(p.kind) },
                { "description", QString::fromStdString(p.description) } });
        QJsonArray queues;
        for (const std::string& n : policy::queueOrderNames())
            queues.append(QString::fromStdString(n));
        std::fputs(QJsonDocument(QJsonObject { { "schema", "schedlab.policies/1" }, { "placement", arr },
                                     { "queue", queues }, { "backfill", QJsonArray { "none", "easy" } },
                                     { "tieBreak", ties } })
                       .toJson()
                       .constData(),
            stdout);
        return 0;
    }
    std::printf("placement policies (--policy a,b,...):\n");
    for (const auto& p : list)
        std::printf("  %-14s %s\n", p.name.c_str(), p.description.c_str());
    std::printf("\nqueue orders (--queue, timed mode): %s\n", [] {
        std::string s;
        for (const std::string& n : policy::queueOrderNames())
            s += (s.empty() ? "" : ", ") + n;
        return s;
    }().c_str());
    std::printf("backfilling (--backfill, timed mode): none, easy\n");
    std::printf("queue head (--head, timed mode): resort (the queue's first by the order at every pass, default),\n"
                "  commit (a blocked head stays the head until it starts, as the RLScheduler simulator does)\n");
    std::printf("making room (timed mode): --preemption none|priority (Kubernetes default preemption: lower-priority\n"
                "  jobs evicted, queued again, their run so far lost), --migration none|defragment (move one running\n"
                "  task of the same or lower priority to free a node; --migration-restart 60s, --migrations-per-hour N)\n");
    std::printf("\nparameters: --seeds (RNG of tie-breaks, Random, inflation, trim and shuffle; a timed run that\n"
                "  draws nothing, e.g. FirstFit, reports \"seed\": null),\n"
                "  --tie-break random|first|order (equal best scores: random per decision, lowest node, or first in\n"
                "  a node order drawn once per run with the seed; default order for fill, random for timed),\n"
                "  fill: --ratio (default 1.3; a pod list asking for more loses random pods down to it, as the\n"
                "  FGD authors do; --no-trim replays every pod); timed: --sla CLASS=SECONDS,... (default= for jobs\n"
                "  without a class), --window (p99 window, 3600 s),\n"
                "  --tick (series period, default max(60 s, span/4000)), --power-off-idle\n");
    return 0;
}

} // namespace schedlab::cli
