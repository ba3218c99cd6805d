#include "cli_args.h"
#include "commands.h"

#include "trace/native_format.h"
#include "trace/trace_generator.h"

#include <cstdio>

namespace schedlab::cli {

int runGenerate(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, { "nodes", "jobs", "seed", "out", "load", "span" }, {}); !e.empty())
        return fail("generate: " + e, 2);
    auto out = args.value("out");
    if (!out)
        return fail("generate: --out FILE is required", 2);
    std::string error;
    trace::GeneratorOptions o;
    o.nodes = int(args.integer("nodes", o.nodes, error));
    o.jobs = args.integer("jobs", o.jobs, error);
    o.seed = uint64_t(args.integer("seed", int64_t(o.seed), error));
    o.targetGpuLoad = args.real("load", o.targetGpuLoad, error);
    o.spanS = args.real("span", o.spanS, error);
    if (!error.empty())
        return fail("generate: " + error, 2);
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
