// Autoscaling runs in the project database (schema 9): the load, service, policy and window a run
// replayed, its named figures, and its per-minute series.

#include "project.h"
#include "sqlite_db.h"
#include "store_util.h"

#include <cstring>

namespace schedlab::store {

using detail::nowUtc;

double AutoscaleRunRecord::value(const std::string& key, double fallback) const
{
    for (const auto& [k, v] : summary)
        if (k == key)
            return v;
    return fallback;
}

Result<int64_t> Project::addAutoscaleRun(const AutoscaleRunRecord& run)
{
    if (Status s = writable(); !s)
        return s.error();
    if (m_db->readOnly())
        return makeError(ErrorCode::Io, "project is read-only; autoscaling runs cannot be stored", m_path);
    if (run.seriesColumns < 0 || (run.seriesColumns > 0 && run.series.size() % std::size_t(run.seriesColumns) != 0))
        return makeError(ErrorCode::Invalid, "an autoscaling run's series is not whole rows", m_path);
    Transaction tx(*m_db);
    if (Status s = tx.begin(); !s)
        return s.error();
    auto ins = m_db->prepare("INSERT INTO autoscale_runs(load, service, policy, from_s, duration_s, created_at, series_columns, series) "
                             "VALUES (?, ?, ?, ?, ?, ?, ?, ?)");
    if (!ins)
        return ins.error();
    ins->bind(1, run.load).bind(2, run.service).bind(3, run.policy).bind(4, run.fromS).bind(5, run.durationS);
    ins->bind(6, run.createdAt.empty() ? nowUtc() : run.createdAt).bind(7, int64_t(run.seriesColumns));
    if (run.series.empty())
        ins->bindNull(8);
    else
        ins->bindBlob(8, run.series.data(), int(run.series.size() * sizeof(float)));
    if (Status s = ins->exec(); !s)
        return s.error();
    const int64_t id = m_db->lastInsertId();
    auto sum = m_db->prepare("INSERT INTO autoscale_summary(run_id, key, value) VALUES (?, ?, ?)");
    if (!sum)
        return sum.error();
    for (const auto& [k, v] : run.summary)
        if (Status s = sum->bind(1, id).bind(2, k).bind(3, v).exec(); !s)
            return s.error();
    if (Status s = tx.commit(); !s)
        return s.error();
    return id;
}

Result<std::vector<AutoscaleRunRecord>> Project::autoscaleRuns(bool withSeries) const
{
    std::vector<AutoscaleRunRecord> out;
    if (m_schema < 9)
        return out; // an older project opened read-only
    auto q = m_db->prepare(std::string("SELECT id, load, service, policy, from_s, duration_s, created_at, series_columns")
        + (withSeries ? ", series" : "") + " FROM autoscale_runs ORDER BY id");
    if (!q)
        return q.error();
    while (q->step()) {
        AutoscaleRunRecord r;
        r.id = q->columnInt(0);
        r.load = q->columnText(1);
        r.service = q->columnText(2);
        r.policy = q->columnText(3);
        r.fromS = q->columnDouble(4);
        r.durationS = q->columnDouble(5);
        r.createdAt = q->columnText(6);
        r.seriesColumns = int(q->columnInt(7));
        if (withSeries) {
            const std::vector<unsigned char> blob = q->columnBlob(8);
            if (blob.size() % sizeof(float) != 0 || (r.seriesColumns > 0 && (blob.size() / sizeof(float)) % std::size_t(r.seriesColumns) != 0))
                return makeError(ErrorCode::Format, "autoscaling run " + std::to_string(r.id) + ": its series is not whole rows (damaged)", m_path);
            r.series.resize(blob.size() / sizeof(float));
            if (!blob.empty())
                std::memcpy(r.series.data(), blob.data(), blob.size());
        }
        out.push_back(std::move(r));
    }
    if (q->error())
        return *q->error();
    auto s = m_db->prepare("SELECT run_id, key, value FROM autoscale_summary ORDER BY run_id, rowid");
    if (!s)
        return s.error();
    std::size_t at = 0;
    while (s->step()) {
        const int64_t id = s->columnInt(0);
        while (at < out.size() && out[at].id < id)
            ++at;
        if (at < out.size() && out[at].id == id)
            out[at].summary.emplace_back(s->columnText(1), s->columnDouble(2));
    }
    if (s->error())
        return *s->error();
    return out;
}

} // namespace schedlab::store
