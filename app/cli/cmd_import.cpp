// `schedlab-cli import FILE... --project P`: checks a trace and stores a copy of it in a project
// (one transaction: a crash leaves the whole import or nothing).

#include "command_table.h"
#include "cli_args.h"
#include "commands.h"
#include "import_options.h"

#include "store/project.h"
#include "trace/trace_loader.h"

#include <QJsonDocument>
#include <QJsonObject>

#include <cstdio>

namespace schedlab::cli {

int runImport(const std::vector<std::string>& argv)
{
    Args a;
    if (std::string e = a.parse(argv, commandOptions("import")); !e.empty())
        return fail("import: " + e, 2);
    if (a.positional().empty() || !a.value("project"))
        return fail("import: usage: import FILE... --project P", 2);
    trace::ImportOptions options;
    if (std::string e = importOptionsFrom(a, options); !e.empty())
        return fail("import: " + e, 2);
    auto loaded = trace::loadTrace(a.positional(), options);
    if (!loaded)
        return fail(loaded.error().toString());
    auto project = store::Project::open(*a.value("project"));
    if (!project)
        return fail(project.error().toString());
    auto id = project.value()->importTrace(loaded->trace, loaded->readPaths()); // a stream's bytes: its copy
    if (!id)
        return fail(id.error().toString());
    const trace::Trace& t = loaded->trace;
    if (a.flag("json")) {
        QJsonObject o { { "schema", "schedlab.import/1" }, { "trace", double(id.value()) },
            { "nodes", double(t.nodes.size()) }, { "jobs", double(t.jobs.size()) }, { "tasks", double(t.tasks.size()) },
            { "warnings", double(loaded->diagnostics.total()) } };
        std::fputs(QJsonDocument(o).toJson(QJsonDocument::Indented).constData(), stdout);
    } else {
        std::printf("imported as trace %lld: %zu nodes, %zu jobs, %zu tasks, %lld warnings\n", static_cast<long long>(id.value()),
            t.nodes.size(), t.jobs.size(), t.tasks.size(), static_cast<long long>(loaded->diagnostics.total()));
    }
    return 0;
}

} // namespace schedlab::cli
