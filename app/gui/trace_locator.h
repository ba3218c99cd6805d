#pragma once
// Brings back a project's trace whose files moved, off the GUI thread (JobTracker): the picked
// file and its neighbours are hashed against the trace the project recorded, the new place is
// recorded and, when asked, the trace is imported into the project (workflow::relocateTrace on a
// worker with its own project connection). A read-only project only checks the files, for this
// session.

#include "job_tracker.h"

#include "trace/import_context.h"
#include "workflow/trace_location.h"

#include <QObject>
#include <QString>

#include <string>
#include <vector>

namespace schedlab::app {

class TraceLocator : public QObject {
    Q_OBJECT
public:
    explicit TraceLocator(QObject* parent = nullptr);
    /// Starts bringing trace `traceId` of the project file `projectPath` back from `picked`; a
    /// relocation still running is dropped.
    void start(const std::string& projectPath, int64_t traceId, const std::string& picked, workflow::Relocation how);
    void cancel() { m_jobs.cancel(); }
    bool isRunning() const { return m_jobs.isRunning(); }

signals:
    void progress(double fraction);
    /// The trace's files where they are now, with the options to read them as the runs did.
    void relocated(qint64 traceId, const std::vector<std::string>& files, const schedlab::trace::ImportOptions& options,
        schedlab::workflow::Relocation how);
    /// Not the trace's files, unreadable, a read-only project, or cancelled (`error` empty).
    void failed(bool cancelled, const QString& error);

private:
    JobTracker m_jobs;
};

} // namespace schedlab::app
