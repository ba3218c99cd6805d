#pragma once
/// Progress reporting and cooperative cancellation for long core operations.
/// The core knows nothing of threads: a caller on another thread flips the token, the operation
/// polls it and returns ErrorCode::Cancelled.

#include <atomic>
#include <functional>
#include <memory>

namespace schedlab {

/// Called with a fraction in [0, 1]. May be called from the thread running the operation.
using ProgressFn = std::function<void(double fraction)>;

/// Shared cancellation flag; copies refer to the same flag. Thread-safe.
class CancelToken {
public:
    CancelToken()
        : m_flag(std::make_shared<std::atomic<bool>>(false))
    {
    }
    void cancel() { m_flag->store(true, std::memory_order_relaxed); }
    bool isCancelled() const { return m_flag->load(std::memory_order_relaxed); }

private:
    std::shared_ptr<std::atomic<bool>> m_flag;
};

/// Forwards progress only when it moved by at least 0.1 % (STYLE: throttled progress).
class ThrottledProgress {
public:
    explicit ThrottledProgress(ProgressFn fn)
        : m_fn(std::move(fn))
    {
    }
    void report(double fraction)
    {
        if (!m_fn)
            return;
        if (fraction >= 1.0 || fraction - m_last >= 0.001) {
            m_last = fraction;
            m_fn(fraction > 1.0 ? 1.0 : fraction);
        }
    }

private:
    ProgressFn m_fn;
    double m_last = -1.0;
};

} // namespace schedlab
