// Where a trace's files are: the content hash that identifies a trace, and moving a trace's
// recorded files to where the user found them (the same bytes, checked).

#include "project.h"
#include "sqlite_db.h"
#include "store_util.h"

#include <QByteArrayView>
#include <QCryptographicHash>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>

namespace schedlab::store {

namespace detail {

    std::string recordedFileList(const std::vector<std::string>& files)
    {
        std::string out;
        for (const std::string& f : files) {
            // Absolute, so a project opened from another directory still finds its trace.
            std::error_code ec;
            const std::filesystem::path absolute = std::filesystem::absolute(f, ec);
            out += (out.empty() ? "" : "\n") + (ec ? f : absolute.lexically_normal().string());
        }
        return out;
    }

    Result<TraceFilesHash> hashTraceFiles(const std::vector<std::string>& files, const std::string& optionsJson)
    {
        QCryptographicHash hash(QCryptographicHash::Sha256);
        TraceFilesHash out;
        for (const std::string& f : files) {
            // Paths are bytes (a name need not be UTF-8): opened and stored as given, never via QString.
            std::unique_ptr<std::FILE, int (*)(std::FILE*)> file(std::fopen(f.c_str(), "rb"), &std::fclose);
            if (!file)
                return makeError(ErrorCode::Io, std::string("cannot read for hashing: ") + std::strerror(errno), f);
            std::vector<char> buf(1 << 20);
            std::size_t n = 0;
            while ((n = std::fread(buf.data(), 1, buf.size(), file.get())) > 0)
                hash.addData(QByteArrayView(buf.data(), qsizetype(n)));
            if (std::ferror(file.get()))
                return makeError(ErrorCode::Io, "cannot read for hashing", f);
        }
        out.fileList = recordedFileList(files);
        // Traces read with the default options hash their bytes only (as every schema before 8 did).
        if (!optionsJson.empty() && optionsJson != "{}")
            hash.addData(QByteArrayView(optionsJson.data(), qsizetype(optionsJson.size())));
        out.digest = hash.result().toHex().toStdString();
        return out;
    }

} // namespace detail

Result<bool> Project::hasStoredTrace(int64_t traceId)
{
    auto q = m_db->prepare("SELECT count(*) FROM trace_data WHERE trace_id = ?");
    if (!q)
        return q.error();
    q->bind(1, traceId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Internal, "count failed", m_path);
    return q->columnInt(0) > 0;
}

Status Project::checkTraceFiles(int64_t traceId, const std::vector<std::string>& files)
{
    auto q = m_db->prepare("SELECT content_hash, import_options FROM traces WHERE id = ?");
    if (!q)
        return q.error();
    q->bind(1, traceId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Invalid, "no trace " + std::to_string(traceId), m_path);
    const std::string recorded = q->columnText(0), options = q->columnText(1);
    auto hashed = detail::hashTraceFiles(files, options);
    if (!hashed)
        return hashed.error();
    // The runs were made from those bytes: another file (or another version of it) would give
    // them a trace they never ran on.
    if (hashed->digest != recorded)
        return makeError(ErrorCode::Invalid,
            "not the trace of these runs: the content differs from the file that was imported (trace "
                + std::to_string(traceId) + ")",
            files.empty() ? m_path : files.front());
    return {};
}

Status Project::relocateTrace(int64_t traceId, const std::vector<std::string>& files)
{
    if (readOnly())
        return makeError(ErrorCode::Io, "project is read-only; the trace's new place cannot be recorded", m_path);
    if (Status s = checkTraceFiles(traceId, files); !s)
        return s;
    if (Status s = writable(); !s) // a project opened to look is written from here on
        return s;
    auto up = m_db->prepare("UPDATE traces SET files = ? WHERE id = ?");
    if (!up)
        return up.error();
    up->bind(1, detail::recordedFileList(files)).bind(2, traceId);
    return up->exec();
}

} // namespace schedlab::store
