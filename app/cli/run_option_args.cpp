#include "run_option_args.h"

#include "policy/queue_policy.h"
#include "workflow/run_args.h"

namespace schedlab::cli {

const std::vector<OptionSpec>& queueOptions()
{
    static const std::vector<OptionSpec> options = {
        { "queue", "fcfs|sjf|priority|wfp3|unicep|f1|fair", "timed: the queue order" },
        { "backfill", "none|easy", "timed: start later jobs that do not delay the head (EASY)" },
        { "head", "resort|commit", "timed: re-sort the queue at every pass, or keep a blocked head" },
    };
    return options;
}

const std::vector<OptionSpec>& roomOptions()
{
    static const std::vector<OptionSpec> options = {
        { "preemption", "none|priority", "timed: evict lower-priority jobs to make room (Kubernetes)" },
        { "migration", "none|defragment", "move one running task to make room" },
        { "migration-restart", "T", "timed: the restart cost of a moved task (60s)" },
        { "migrations-per-hour", "N", "timed: at most N moves an hour (0 = no limit)" },
        { "migration-budget", "N", "fill: at most N moves in a run (0 = no limit)" },
    };
    return options;
}

namespace {
std::set<std::string> namesOf(const std::vector<OptionSpec>& options)
{
    std::set<std::string> names;
    for (const OptionSpec& o : options)
        names.insert(o.name);
    return names;
}
} // namespace

const std::set<std::string>& queueOptionNames()
{
    static const std::set<std::string> names = namesOf(queueOptions());
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
