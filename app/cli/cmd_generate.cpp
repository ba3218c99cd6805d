#include "command_table.h"
#include "cli_args.h"
#include "commands.h"
#include "policy/k8s_scheduler_config.h"
#include "kubectl_dump.h"
#include "scheduler_log.h"

#include "trace/native_format.h"
#include "trace/trace_generator.h"

#include <cstdio>

namespace schedlab::cli {

int runGenerate(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("generate")); !e.empty())
        return fail("generate: " + e, 2);
    auto out = args.value("out");
    const auto dump = args.value("kubectl-dump");
    const auto schedulerLog = args.value("kube-scheduler-log");
    if (!out && !dump && !schedulerLog)
        return fail("generate: --out FILE.sltrace, --kubectl-dump DIR or --kube-scheduler-log DIR is required", 2);
    std::string error;
    trace::GeneratorOptions o;
    o.nodes = int(args.integer("nodes", o.nodes, error));
    o.jobs = args.integer("jobs", o.jobs, error);
    o.seed = uint64_t(args.integer("seed", int64_t(o.seed), error));
    o.targetGpuLoad = args.real("load", o.targetGpuLoad, error);
    o.spanS = args.real("span", o.spanS, error);
    if (!error.empty())
        return fail("generate: " + error, 2);
    if (schedulerLog) {
        SchedulerLogOptions lo;
        lo.verbosity = int(args.integer("verbosity", 10, error));
        const std::string format = args.value("log-format").value_or("text");
        if (!error.empty() || (lo.verbosity != 2 && lo.verbosity != 10))
            return fail("generate: --verbosity must be 2 or 10", 2);
        if (format != "text" && format != "json")
            return fail("generate: --log-format must be text or json", 2);
        lo.json = format == "json";
        if (auto path = args.value("scheduler-config")) {
            auto config = policy::readKubeSchedulerConfig(*path, &lo.schedulerConfig);
            if (!config)
                return fail("generate: --scheduler-config: " + config.error().toString(), 2);
        }
        auto s = writeGeneratedSchedulerLog(o, lo, *schedulerLog);
        if (!s)
            return fail("generate: " + s.error().toString());
        std::printf("wrote %s/{nodes,pods}.json and kube-scheduler.%s: %zu nodes, %zu pods, %zu binds, %zu failures, %lld lines "
                    "(%.1f MB; klog has no year: --log-year %d)\n",
            schedulerLog->c_str(), lo.json ? "json" : "log", s->nodes, s->pods, s->binds, s->failures,
            static_cast<long long>(s->lines), double(s->bytes) / 1e6, s->year);
        if (!out && !dump)
            return 0;
    }
    if (dump) {
        auto s = writeGeneratedKubectlDump(o, *dump);
        if (!s)
            return fail("generate: " + s.error().toString());
        std::printf("wrote %s/{nodes,pods,events}.json: %zu nodes, %zu pods (%zu bound, %zu of them running; %zu pending), seed %llu\n",
            dump->c_str(), s->nodes, s->pods, s->bound, s->running, s->pending, static_cast<unsigned long long>(o.seed));
        if (!out)
            return 0;
    }
    auto t = trace::generateTrace(o);
    if (!t)
        return fail("generate: " + t.error().toString(), 2);
    if (Status st = trace::writeNativeTrace(t.value(), *out); !st)
        return fail(st.error().toString());
    std::printf("wrote %s: %zu nodes (%lld GPUs), %zu jobs, %zu tasks, seed %llu\n", out->c_str(), t->nodes.size(),
        static_cast<long long>(t->totalGpus()), t->jobs.size(), t->tasks.size(),
        static_cast<unsigned long long>(o.seed));
    return 0;
}

} // namespace schedlab::cli
