#include "command_table.h"
#include "commands.h"
#include "import_options.h"

#include "trace/decision_log_format.h"
#include "trace/native_format.h"
#include "trace/trace_loader.h"

#include <cstdio>

namespace schedlab::cli {

int runConvert(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("convert")); !e.empty())
        return fail("convert: " + e, 2);
    auto out = args.value("out");
    if (!out || args.positional().empty())
        return fail("convert: usage: convert FILE... --out FILE.sltrace|FILE.jsonl", 2);
    trace::ImportOptions options;
    if (std::string e = importOptionsFrom(args, options); !e.empty())
        return fail("convert: " + e, 2);
    auto loaded = trace::loadTrace(args.positional(), options);
    if (!loaded)
        return fail(loaded.error().toString());
    // .jsonl: a schedlab decision log (docs/decision-log.md); anything else: the native format.
    const bool decisionLog = out->size() > 6 && out->compare(out->size() - 6, 6, ".jsonl") == 0;
    if (Status st = decisionLog ? trace::writeDecisionLog(loaded->trace, *out) : trace::writeNativeTrace(loaded->trace, *out); !st)
        return fail(st.error().toString());
    std::printf("wrote %s: %zu nodes, %zu jobs, %zu tasks, %zu logged decisions (%lld warnings during import)\n", out->c_str(),
        loaded->trace.nodes.size(), loaded->trace.jobs.size(), loaded->trace.tasks.size(), loaded->trace.logged.decisions.size(),
        static_cast<long long>(loaded->diagnostics.total()));
    return 0;
}

} // namespace schedlab::cli
