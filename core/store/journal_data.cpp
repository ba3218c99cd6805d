// Stored state journals (schema 7): operations packed little-endian (int32 node, int64 cpu milli,
// int64 memory MiB, int32 gpu milli per GPU, uint64 GPU mask, uint8 release; 33 bytes) followed by
// one int64 journal position per decision, the whole compressed.

#include "project.h"
#include "sqlite_db.h"
#include "store_util.h"

#include <QByteArray>

#include <cstring>

namespace schedlab::store {

namespace {
constexpr std::size_t kOpBytes = 4 + 8 + 8 + 4 + 8 + 1;
}

Status Project::storeJournal(int64_t runId, const sim::StateJournal& journal, const sim::DecisionLog& log, uint64_t finalHash)
{
    if (Status s = writable(); !s)
        return s;
    const auto& ops = journal.ops();
    QByteArray raw;
    raw.resize(qsizetype(ops.size() * kOpBytes + log.size() * 8));
    char* at = raw.data();
    auto put = [&at](const void* p, std::size_t n) {
        std::memcpy(at, p, n);
        at += n;
    };
    for (const sim::StateJournal::Op& op : ops) {
        const cluster::Placement& p = op.placement;
        const uint8_t release = op.release ? 1 : 0;
        put(&p.node, 4);
        put(&p.cpuMilli, 8);
        put(&p.memMiB, 8);
        put(&p.gpuMilliPerGpu, 4);
        put(&p.gpuMask, 8);
        put(&release, 1);
    }
    for (const sim::Decision& d : log.decisions())
        put(&d.statePos, 8);
    const QByteArray packed = qCompress(raw, 6);
    if (packed.size() > 1'000'000'000)
        return makeError(ErrorCode::Range, "the journal of run " + std::to_string(runId) + " is above SQLite's 1 GB blob limit", m_path);
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s;
    auto ins = m_db->prepare("INSERT OR REPLACE INTO run_journals(run_id, ops, decisions, final_hash, data) VALUES (?, ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    char hash[17];
    std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(finalHash));
    ins->bind(1, runId).bind(2, int64_t(ops.size())).bind(3, int64_t(log.size())).bind(4, std::string(hash));
    ins->bindBlob(5, packed.constData(), int(packed.size()));
    if (Status s = ins->exec(); !s)
        return s;
    return tx.commit();
}

Result<std::optional<StoredJournal>> Project::journal(int64_t runId)
{
    if (m_schema < 7)
        return std::optional<StoredJournal> {}; // an older project opened read-only
    auto q = m_db->prepare("SELECT ops, decisions, final_hash, data FROM run_journals WHERE run_id = ?");
    if (!q)
        return q.error();
    q->bind(1, runId);
    if (!q->step()) {
        if (q->error())
            return *q->error();
        return std::optional<StoredJournal> {};
    }
    const int64_t nOps = q->columnInt(0), nDecisions = q->columnInt(1);
    const std::vector<unsigned char> blob = q->columnBlob(3);
    const QByteArray raw = qUncompress(reinterpret_cast<const uchar*>(blob.data()), qsizetype(blob.size()));
    if (nOps < 0 || nDecisions < 0 || uint64_t(raw.size()) != uint64_t(nOps) * kOpBytes + uint64_t(nDecisions) * 8)
        return makeError(ErrorCode::Format, "the stored journal of run " + std::to_string(runId) + " is corrupted", m_path);
    StoredJournal j;
    j.finalHash = std::strtoull(q->columnText(2).c_str(), nullptr, 16);
    j.ops.resize(std::size_t(nOps));
    const char* at = raw.constData();
    auto get = [&at](void* p, std::size_t n) {
        std::memcpy(p, at, n);
        at += n;
    };
    for (sim::StateJournal::Op& op : j.ops) {
        uint8_t release = 0;
        get(&op.placement.node, 4);
        get(&op.placement.cpuMilli, 8);
        get(&op.placement.memMiB, 8);
        get(&op.placement.gpuMilliPerGpu, 4);
        get(&op.placement.gpuMask, 8);
        get(&release, 1);
        op.release = release != 0;
    }
    j.statePos.resize(std::size_t(nDecisions));
    for (int64_t& p : j.statePos)
        get(&p, 8);
    return std::optional<StoredJournal>(std::move(j));
}

} // namespace schedlab::store
