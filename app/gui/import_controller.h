#pragma once
// Imports trace files off the GUI thread (JobTracker): trace::loadTrace with progress by bytes and
// cancel; a newer import drops an older one's result. The GUI thread keeps painting and answering
// while a large trace (Google part 0: 450k task events) is parsed.

#include "job_tracker.h"

#include "trace/trace_loader.h"

#include <QObject>
#include <QString>

#include <memory>
#include <string>
#include <vector>

namespace schedlab::app {

class ImportController : public QObject {
    Q_OBJECT
public:
    explicit ImportController(QObject* parent = nullptr);
    /// Starts importing `paths` as one trace; an import still running is cancelled and dropped.
    void start(const std::vector<std::string>& paths, const trace::ImportOptions& options = {});
    void cancel() { m_jobs.cancel(); }
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void progress(double fraction);
    /// The trace of `paths` (immutable, shared with the views).
    void imported(std::shared_ptr<const schedlab::trace::LoadedTrace> loaded, const std::vector<std::string>& paths);
    /// Failed with a message naming the file and line, or cancelled (then `error` is empty).
    void failed(bool cancelled, const QString& error);

private:
    JobTracker m_jobs;
};

} // namespace schedlab::app
