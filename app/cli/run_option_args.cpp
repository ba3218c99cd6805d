#include "run_option_args.h"

#include "policy/queue_policy.h"
#include "workflow/run_args.h"

namespace schedlab::cli {

const std::set<std::string>& queueOptionNames()
{
    static const std::set<std::string> names = { "queue", "backfill", "head" };
    return names;
}

const std::set<std::string>& roomOptionNames()
{
    static const std::set<std::string> names = { "preemption", "migration", "migration-restart", "migrations-per-hour", "migration-budget" };
    return names;
}

namespace {
std::string queueOrderList()
{
    std::string list;
    for (const std::string& n : policy::queueOrderNames())
        list += (list.empty() ? "" : ", ") + n;
    return list;
}

std::string parseMigration(const Args& a, sim::Migration& m)
{
    if (auto v = a.value("migration"); v && !sim::parseMigration(*v, m))
        return "--migration is none or defragment (move one running task to make room)";
    return {};
}
} // namespace

std::string parseQueueOptions(const Args& a, sim::TimedOptions& o)
{
    if (auto q = a.value("queue"); q && !policy::parseQueueOrder(*q, o.queue))
        return "--queue is one of " + queueOrderList();
    if (auto b = a.value("backfill")) {
        if (*b != "none" && *b != "easy")
            return "--backfill is none or easy";
        o.backfill = *b == "easy" ? sim::Backfill::Easy : sim::Backfill::None;
    }
    if (auto h = a.value("head"); h && !sim::parseHeadRule(*h, o.head))
        return "--head is resort (re-sort the queue at every pass) or commit (a blocked head stays the head)";
    return {};
}

std::string parseRoomOptions(const Args& a, sim::RunSpec& spec)
{
    std::string error;
    if (sim::FillOptions* f = spec.fillOptions()) {
        if (a.value("preemption") || a.value("migration-restart") || a.value("migrations-per-hour"))
            return "--preemption, --migration-restart and --migrations-per-hour belong to --mode timed "
                   "(the fill experiment makes room with --migration defragment and --migration-budget N)";
        if (std::string e = parseMigration(a, f->migration); !e.empty())
            return e;
        f->migrationBudget = a.integer("migration-budget", f->migrationBudget, error);
        if (!error.empty() || f->migrationBudget < 0)
            return error.empty() ? "--migration-budget must be >= 0 (0 = no limit)" : error;
        return {};
    }
    sim::TimedOptions& t = *spec.timedOptions();
    if (a.value("migration-budget"))
        return "--migration-budget belongs to --mode fill (a timed replay limits moves with --migrations-per-hour N)";
    if (auto p = a.value("preemption"); p && !sim::parsePreemption(*p, t.preemption))
        return "--preemption is none or priority (Kubernetes: evict lower-priority jobs to make room)";
    if (std::string e = parseMigration(a, t.migration); !e.empty())
        return e;
    if (auto text = a.value("migration-restart")) {
        auto v = workflow::parseRunTime(*text, sim::RunMode::Timed);
        if (!v)
            return "--migration-restart: " + v.error().message;
        t.migrationRestartS = v.value();
    }
    t.migrationsPerHour = a.real("migrations-per-hour", t.migrationsPerHour, error);
    if (!error.empty() || t.migrationsPerHour < 0)
        return error.empty() ? "--migrations-per-hour must be >= 0 (0 = no limit)" : error;
    return {};
}

std::string parseRunOptions(const Args& a, sim::RunSpec& spec)
{
    if (sim::TimedOptions* t = spec.timedOptions()) {
        if (std::string e = parseQueueOptions(a, *t); !e.empty())
            return e;
    } else {
        for (const std::string& name : queueOptionNames())
            if (a.value(name))
                return "--" + name + " belongs to --mode timed (the fill experiment places pods in list order)";
    }
    return parseRoomOptions(a, spec);
}

} // namespace schedlab::cli
