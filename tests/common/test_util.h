#pragma once
// Helpers shared by the test executables: temporary files, gzip writing, golden-file comparison,
// and the location of the real traces (tests on them skip with a message when absent).

#include <QByteArray>
#include <QString>
#include <QTemporaryDir>

#include <string>

namespace schedlab::test {

/// Writes `content` to dir/name and returns the path.
std::string writeFile(const QTemporaryDir& dir, const std::string& name, const std::string& content);
/// Writes `content` gzip-compressed; `truncateTo` > 0 keeps only that many compressed bytes.
std::string writeGzip(const QTemporaryDir& dir, const std::string& name, const std::string& content,
    long truncateTo = 0);
/// Whole file as a string ("" when missing).
std::string readFile(const std::string& path);
/// Path under tests/data.
std::string dataPath(const std::string& relative);
/// Path under ../shared/traces, or "" when the folder is absent.
std::string realTrace(const std::string& relative);
/// Compares `actual` with the golden file; on mismatch writes <golden>.actual and returns a diff
/// summary (empty = equal). SCHEDLAB_UPDATE_GOLDEN=1 rewrites the golden file instead.
std::string compareGolden(const std::string& goldenRelative, const std::string& actual);
/// SHA-256 of a project file and of its write-ahead log (a killed writer's rows are there until
/// merged): equal before and after means nothing wrote to it.
QByteArray projectDigest(const std::string& project);

} // namespace schedlab::test

/// Skips the current test when the real traces are absent.
#define SCHEDLAB_REQUIRE_REAL_TRACES()                                                                                 \
    do {                                                                                                               \
        if (schedlab::test::realTrace("").empty())                                                                     \
            QSKIP("../shared/traces is absent; real-trace tests need it (read-only, never copied into the repo)");    \
    } while (0)
