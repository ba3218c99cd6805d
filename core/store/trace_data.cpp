// Imported traces stored inside the project (schema 4, table trace_data).

#include "project.h"
#include "sqlite_db.h"

#include "trace/native_format.h"
#include "trace/trace_loader.h"

#include <QByteArray>
#include <QFile>
#include <QTemporaryDir>

namespace schedlab::store {

Result<int64_t> Project::importTrace(const trace::Trace& t, const std::vector<std::string>& files)
{
    if (Status s = writable(); !s)
        return s.error();
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; traces cannot be imported", m_path);
    // Our own format round-trips every importer's Trace exactly (tested), so it is the copy kept.
    QTemporaryDir tmp;
    if (!tmp.isValid())
        return makeError(ErrorCode::Io, "cannot create a temporary folder for the import");
    const std::string text = tmp.filePath("trace.sltrace").toStdString();
    if (Status s = trace::writeNativeTrace(t, text); !s)
        return s.error();
    QFile f(QString::fromStdString(text));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot read back the converted trace", text);
    const QByteArray raw = f.readAll();
    const QByteArray packed = qCompress(raw, 6);
    if (packed.size() > 1'000'000'000)
        return makeError(ErrorCode::Range, "the compressed trace is above SQLite's 1 GB blob limit; keep the files instead", m_path);

    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s.error();
    auto id = addTrace(t, files);
    if (!id)
        return id.error();
    auto has = m_db->prepare("SELECT count(*) FROM trace_data WHERE trace_id = ?");
    if (!has)
        return has.error();
    has->bind(1, id.value());
    if (has->step() && has->columnInt(0) > 0)
        return id.value(); // the same content was imported before (rolled back: nothing new)
    auto ins = m_db->prepare("INSERT INTO trace_data(trace_id, format, raw_bytes, data) VALUES (?, 'sltrace', ?, ?)");
    if (!ins)
        return ins.error();
    ins->bind(1, id.value()).bind(2, int64_t(raw.size()));
    ins->bindBlob(3, packed.constData(), int(packed.size()));
    if (Status s = ins->exec(); !s)
        return s.error();
    if (Status s = tx.commit(); !s)
        return s.error();
    return id.value();
}

Result<trace::Trace> Project::storedTrace(int64_t traceId)
{
    const std::string none = "trace " + std::to_string(traceId) + " has no stored copy (imported with files only)";
    if (m_schema < 4) // an older project opened read-only: no copies yet
        return makeError(ErrorCode::Invalid, none, m_path);
    auto q = m_db->prepare("SELECT data, raw_bytes FROM trace_data WHERE trace_id = ?");
    if (!q)
        return q.error();
    q->bind(1, traceId);
    if (!q->step())
        return q->error() ? *q->error() : makeError(ErrorCode::Invalid, none, m_path);
    const std::vector<unsigned char> blob = q->columnBlob(0);
    const QByteArray raw = qUncompress(reinterpret_cast<const uchar*>(blob.data()), qsizetype(blob.size()));
    if (raw.isEmpty() || raw.size() != q->columnInt(1))
        return makeError(ErrorCode::Format, "the stored copy of trace " + std::to_string(traceId) + " is corrupted", m_path);
    QTemporaryDir tmp;
    const QString text = tmp.filePath("trace.sltrace");
    QFile f(text);
    if (!tmp.isValid() || !f.open(QIODevice::WriteOnly) || f.write(raw) != raw.size())
        return makeError(ErrorCode::Io, "cannot write a temporary copy of the stored trace");
    f.close();
    auto loaded = trace::loadTrace({ text.toStdString() });
    if (!loaded)
        return loaded.error();
    return std::move(loaded->trace);
}

} // namespace schedlab::store
