#include "trace_locator.h"

#include "store/project.h"

namespace schedlab::app {

namespace {
    struct Found {
        std::vector<std::string> files;
        trace::ImportOptions options;
    };
} // namespace

TraceLocator::TraceLocator(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

void TraceLocator::start(
    const std::string& projectPath, int64_t traceId, const std::string& picked, workflow::Relocation how)
{
    m_jobs.reset();
    m_jobs.launch(
        [projectPath, traceId, picked, how](ProgressFn progress, CancelToken cancel) -> Result<Found> {
            auto project = store::Project::open(projectPath,
                how == workflow::Relocation::Check ? store::Project::OpenMode::ReadOnly
                                                   : store::Project::OpenMode::ExistingOnly);
            if (!project)
                return project.error();
            auto files = workflow::relocateTrace(*project.value(), traceId, picked, how, progress, cancel);
            if (!files)
                return files.error();
            auto options = project.value()->traceImportOptions(traceId);
            if (!options)
                return options.error();
            return Found { std::move(files).value(), options.value() };
        },
        [this, traceId, how](Result<Found> r) {
            if (r)
                emit relocated(traceId, r->files, r->options, how);
            else
                emit failed(r.error().isCancelled(),
                    r.error().isCancelled() ? QString() : QString::fromStdString(r.error().toString()));
        },
        [this](double f) { emit progress(f); });
}

} // namespace schedlab::app
