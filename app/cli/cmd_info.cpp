#include "command_table.h"
#include "commands.h"
#include "import_options.h"

#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QJsonDocument>

#include <cstdio>

namespace schedlab::cli {

int fail(const std::string& message, int code)
{
    std::fprintf(stderr, "schedlab-cli: %s\n", message.c_str());
    return code;
}

int runInfo(const std::vector<std::string>& argv)
{
    Args args;
    if (std::string e = args.parse(argv, commandOptions("info")); !e.empty())
        return fail("info: " + e, 2);
    if (args.positional().empty())
        return fail("info: give at least one trace file", 2);
    trace::ImportOptions options;
    if (std::string e = importOptionsFrom(args, options); !e.empty())
        return fail("info: " + e, 2);

    auto loaded = trace::loadTrace(args.positional(), options);
    if (!loaded) {
        if (args.flag("json")) {
            const Error& e = loaded.error();
            QJsonObject err { { "schema", "schedlab.error/1" }, { "code", errorCodeName(e.code) },
                { "message", QString::fromStdString(e.message) }, { "file", QString::fromStdString(e.file) },
                { "line", double(e.line) }, { "text", QString::fromStdString(e.toString()) } };
            std::fputs(QJsonDocument(err).toJson(QJsonDocument::Indented).constData(), stdout);
        }
        return fail(loaded.error().toString());
    }
    const trace::TraceSummary summary = trace::summarize(loaded.value());
    if (args.flag("json"))
        std::fputs(QJsonDocument(trace::toJson(summary)).toJson(QJsonDocument::Indented).constData(), stdout);
    else
        std::fputs(trace::toText(summary).c_str(), stdout);
    return 0;
}

} // namespace schedlab::cli
