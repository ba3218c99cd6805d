#pragma once
// Background work for the workbench, one way for every controller (import, runs, training,
// incident indexing): work runs on Qt's thread pool with a cancel token and a progress callback;
// its result and its progress come back on the GUI thread, and only while the job's generation
// is current, so a superseded job can never overwrite newer state (Hotspot's JobTracker idea).
// Inputs are captured by value before launch; results are values.

#include "base/progress.h"

#include <QCoreApplication>
#include <QFutureWatcher>
#include <QObject>
#include <QPointer>
#include <QtConcurrent>

#include <functional>
#include <memory>
#include <type_traits>

namespace schedlab::app {

/// Runs `fn` later on the GUI thread; callable from any thread. A worker must not post to an
/// object the GUI thread may be destroying: a QPointer tested on the worker can dangle by the time
/// the event is queued (the next event loop then delivers to freed memory). So the event goes to
/// the application, and `fn` tests its QPointers on the GUI thread, where they are safe.
template <class Fn>
void postToGui(Fn fn)
{
    QMetaObject::invokeMethod(QCoreApplication::instance(), std::move(fn), Qt::QueuedConnection);
}

class JobTracker : public QObject {
public:
    explicit JobTracker(QObject* parent = nullptr)
        : QObject(parent)
    {
    }
    ~JobTracker() override { m_cancel.cancel(); }

    /// A new generation: running jobs are cancelled and whatever they deliver is dropped.
    void reset()
    {
        m_cancel.cancel();
        m_cancel = CancelToken {};
        ++m_generation;
        m_active = 0;
    }
    /// Asks the current generation's jobs to stop; they still deliver (a cancelled Result).
    void cancel() { m_cancel.cancel(); }
    bool isCancelled() const { return m_cancel.isCancelled(); }
    /// Jobs of the current generation not yet delivered.
    int active() const { return m_active; }
    bool isRunning() const { return m_active > 0; }

    /// Runs `work(ProgressFn, CancelToken)` on the thread pool; `done(result)` and
    /// `onProgress(fraction)` run on the GUI thread, only while this generation is current.
    /// Progress is throttled (no call for < 0.1 % change).
    template <class Work, class Done>
    void launch(Work work, Done done, std::function<void(double)> onProgress = {})
    {
        using T = std::invoke_result_t<Work, ProgressFn, CancelToken>;
        const uint64_t generation = m_generation;
        const CancelToken cancel = m_cancel;
        ++m_active;
        QPointer<JobTracker> self(this);
        ProgressFn progress;
        if (onProgress) {
            auto throttle = std::make_shared<ThrottledProgress>([self, generation, onProgress](double f) {
                postToGui([self, generation, onProgress, f] {
                    if (self && self->m_generation == generation)
                        onProgress(f);
                });
            });
            progress = [throttle](double f) { throttle->report(f); };
        }
        auto* watcher = new QFutureWatcher<T>(this);
        connect(watcher, &QFutureWatcher<T>::finished, this, [this, watcher, generation, done] {
            T result = watcher->result();
            watcher->deleteLater();
            if (generation != m_generation)
                return; // superseded
            --m_active;
            done(std::move(result));
        });
        watcher->setFuture(QtConcurrent::run([work = std::move(work), progress, cancel]() mutable { return work(progress, cancel); }));
    }

private:
    uint64_t m_generation = 0;
    CancelToken m_cancel;
    int m_active = 0;
};

} // namespace schedlab::app
