#include "import_controller.h"

namespace schedlab::app {

ImportController::ImportController(QObject* parent)
    : QObject(parent)
    , m_jobs(this)
{
}

void ImportController::start(const std::vector<std::string>& paths, const trace::ImportOptions& options)
{
    m_jobs.reset();
    m_jobs.launch(
        [paths, options](ProgressFn progress, CancelToken cancel) -> Result<std::shared_ptr<const trace::LoadedTrace>> {
            auto loaded = trace::loadTrace(paths, options, progress, cancel);
            if (!loaded)
                return loaded.error();
            return std::shared_ptr<const trace::LoadedTrace>(std::make_shared<trace::LoadedTrace>(std::move(loaded).value()));
        },
        [this, paths](Result<std::shared_ptr<const trace::LoadedTrace>> r) {
            if (r)
                emit imported(r.value(), paths);
            else
                emit failed(r.error().isCancelled(), r.error().isCancelled() ? QString() : QString::fromStdString(r.error().toString()));
        },
        [this](double f) { emit progress(f); });
}

} // namespace schedlab::app
