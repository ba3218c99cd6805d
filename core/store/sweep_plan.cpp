// Sweep plan files (sweep_plan.h): building, reading and writing.

#include "sweep_plan.h"

#include "run_spec_codec.h"

#include "trace/fields.h"
#include "trace/trace_loader.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>

namespace schedlab::store {

namespace {

/// Hex SHA-256 of a file's bytes.
Result<std::string> fileSha256(const std::string& path)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), path);
    QCryptographicHash hash(QCryptographicHash::Sha256);
    std::vector<char> buf(1 << 20);
    std::size_t n = 0;
    while ((n = std::fread(buf.data(), 1, buf.size(), f.get())) > 0)
        hash.addData(QByteArrayView(buf.data(), qsizetype(n)));
    if (std::ferror(f.get()))
        return makeError(ErrorCode::Io, "cannot read", path);
    return hash.result().toHex().toStdString();
}

/// A path as JSON: text when it is UTF-8, else {"base64": its bytes}.
QJsonValue pathJson(const std::string& p)
{
    if (trace::isValidUtf8(p))
        return QString::fromStdString(p);
    return QJsonObject { { "base64", QString::fromLatin1(QByteArray::fromStdString(p).toBase64()) } };
}

std::optional<std::string> pathOf(const QJsonValue& v)
{
    if (v.isString())
        return v.toString().toStdString();
    if (v.isObject() && v.toObject().value("base64").isString())
        return QByteArray::fromBase64(v.toObject().value("base64").toString().toLatin1()).toStdString();
    return std::nullopt;
}

QJsonObject cellJson(const SweepCell& c)
{
    const RunInfo info = runInfoOf(c.spec, -1);
    return QJsonObject { { "cell", c.index }, { "trace", c.trace }, { "shard", c.shard }, { "mode", QString::fromStdString(info.mode) },
        { "policy", QString::fromStdString(info.policy) }, { "queue", QString::fromStdString(info.queue) },
        { "backfill", QString::fromStdString(info.backfill) }, { "seed", QString::number(info.seed) },
        { "options", QJsonDocument::fromJson(QByteArray::fromStdString(info.optionsJson)).object() } };
}

/// What identifies the plan: traces by content and options (not paths: the files may live
/// elsewhere on the cluster), and the cells.
std::string planIdOf(const SweepPlan& p)
{
    QJsonArray traces;
    for (const SweepTrace& t : p.traces) {
        QJsonArray sha;
        for (const std::string& s : t.sha256)
            sha.append(QString::fromStdString(s));
        QJsonObject opts;
        for (const auto& [k, v] : t.importOptions)
            opts.insert(QString::fromStdString(k), QString::fromStdString(v));
        traces.append(QJsonObject { { "sha256", sha }, { "importOptions", opts } });
    }
    QJsonArray cells;
    for (const SweepCell& c : p.cells)
        cells.append(cellJson(c));
    const QByteArray canonical = QJsonDocument(QJsonObject { { "shards", p.shards }, { "record", p.recordDecisions ? "full" : "summary" },
                                                    { "traces", traces }, { "cells", cells } })
                                     .toJson(QJsonDocument::Compact);
    return QCryptographicHash::hash(canonical, QCryptographicHash::Sha256).toHex().left(16).toStdString();
}

} // namespace

std::vector<const SweepCell*> SweepPlan::cellsOf(int s) const
{
    std::vector<const SweepCell*> out;
    for (const SweepCell& c : cells)
        if (c.shard == s)
            out.push_back(&c);
    return out;
}

Result<SweepPlan> makeSweepPlan(const SweepSpec& spec)
{
    if (spec.traces.empty() || spec.policies.empty() || spec.seeds.empty())
        return makeError(ErrorCode::Invalid, "a sweep needs traces, policies and seeds");
    if (spec.shards < 1 || spec.shards > 100000)
        return makeError(ErrorCode::Invalid, "--shards takes 1 to 100000");
    SweepPlan plan;
    plan.shards = spec.shards;
    plan.recordDecisions = spec.recordDecisions;
    for (const std::vector<std::string>& files : spec.traces) {
        SweepTrace t;
        for (const std::string& f : files) {
            std::error_code ec;
            const std::filesystem::path abs = std::filesystem::absolute(f, ec);
            t.files.push_back(ec ? f : abs.lexically_normal().string());
            auto sha = fileSha256(t.files.back());
            if (!sha)
                return sha.error();
            t.sha256.push_back(*sha);
        }
        auto loaded = trace::loadTrace(t.files, spec.importOptions); // it must import, here already
        if (!loaded)
            return loaded.error();
        for (const auto& [k, v] : loaded->trace.metadata)
            if (k.rfind("import.", 0) == 0)
                t.importOptions[k] = v;
        plan.traces.push_back(std::move(t));
    }
    for (std::size_t ti = 0; ti < plan.traces.size(); ++ti)
        for (const std::string& policy : spec.policies)
            for (uint64_t seed : spec.seeds) {
                SweepCell c;
                c.index = int(plan.cells.size());
                c.trace = int(ti);
                c.shard = c.index % plan.shards;
                c.spec = spec.base;
                c.spec.policy = policy;
                c.spec.setSeed(seed);
                plan.cells.push_back(std::move(c));
            }
    plan.id = planIdOf(plan);
    return plan;
}

Status writeSweepPlan(const SweepPlan& plan, const std::string& path)
{
    // Files in the plan's folder (or below) are named relative to it: the folder can move (to a
    // cluster's shared file system, a Kubernetes volume) with the plan.
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path().lexically_normal();
    auto named = [&](const std::string& f) {
        const std::filesystem::path rel = std::filesystem::path(f).lexically_relative(folder);
        return !rel.empty() && *rel.begin() != ".." ? rel.string() : f;
    };
    QJsonArray traces;
    for (const SweepTrace& t : plan.traces) {
        QJsonArray files, sha;
        for (const std::string& f : t.files)
            files.append(pathJson(named(f)));
        for (const std::string& s : t.sha256)
            sha.append(QString::fromStdString(s));
        QJsonObject opts;
        for (const auto& [k, v] : t.importOptions)
            opts.insert(QString::fromStdString(k), QString::fromStdString(v));
        traces.append(QJsonObject { { "files", files }, { "sha256", sha }, { "importOptions", opts } });
    }
    QJsonArray cells;
    for (const SweepCell& c : plan.cells)
        cells.append(cellJson(c));
    const QByteArray text = QJsonDocument(QJsonObject { { "schema", kSweepSchema }, { "id", QString::fromStdString(plan.id) },
                                              { "shards", plan.shards }, { "record", plan.recordDecisions ? "full" : "summary" },
                                              { "traces", traces }, { "cells", cells } })
                                .toJson(QJsonDocument::Indented);
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "wb"), &std::fclose);
    if (!f || std::fwrite(text.constData(), 1, std::size_t(text.size()), f.get()) != std::size_t(text.size()) || std::fflush(f.get()) != 0)
        return makeError(ErrorCode::Io, std::string("cannot write: ") + std::strerror(errno), path);
    return {};
}

Result<SweepPlan> readSweepPlan(const std::string& path)
{
    std::unique_ptr<std::FILE, int (*)(std::FILE*)> f(std::fopen(path.c_str(), "rb"), &std::fclose);
    if (!f)
        return makeError(ErrorCode::Io, std::string("cannot read: ") + std::strerror(errno), path);
    QByteArray text;
    char buf[65536];
    std::size_t n = 0;
    while ((n = std::fread(buf, 1, sizeof buf, f.get())) > 0) {
        text.append(buf, qsizetype(n));
        if (text.size() > (qsizetype(256) << 20))
            return makeError(ErrorCode::Range, "larger than 256 MiB: not a sweep plan", path);
    }
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Parse, "not a sweep plan (JSON): " + err.errorString().toStdString() + " at byte " + std::to_string(err.offset), path);
    const QJsonObject o = doc.object();
    auto bad = [&](const std::string& field, const std::string& what) { return makeError(ErrorCode::Format, field + ": " + what, path); };
    if (o.value("schema").toString() != kSweepSchema)
        return bad("/schema", "'" + o.value("schema").toString().toStdString() + "' is not " + kSweepSchema);
    SweepPlan plan;
    std::error_code ec;
    const std::filesystem::path folder = std::filesystem::absolute(path, ec).parent_path();
    plan.id = o.value("id").toString().toStdString();
    plan.shards = o.value("shards").toInt(0);
    if (plan.shards < 1)
        return bad("/shards", "expected a number of shards >= 1");
    const QString record = o.value("record").toString("summary");
    if (record != "full" && record != "summary")
        return bad("/record", "'" + record.toStdString() + "' is not full or summary");
    plan.recordDecisions = record == "full";
    const QJsonArray traces = o.value("traces").toArray();
    for (int i = 0; i < traces.size(); ++i) {
        const QJsonObject t = traces[i].toObject();
        const std::string at = "/traces/" + std::to_string(i);
        SweepTrace st;
        const QJsonArray files = t.value("files").toArray(), sha = t.value("sha256").toArray();
        if (files.isEmpty())
            return bad(at + "/files", "expected a list of trace files");
        for (int k = 0; k < files.size(); ++k) {
            auto p = pathOf(files[k]);
            if (!p || p->empty())
                return bad(at + "/files/" + std::to_string(k), "expected a path");
            // Relative paths are the plan folder's.
            st.files.push_back(std::filesystem::path(*p).is_absolute() ? *p : (folder / *p).lexically_normal().string());
        }
        for (const QJsonValue& s : sha)
            st.sha256.push_back(s.toString().toStdString());
        const QJsonObject opts = t.value("importOptions").toObject();
        for (auto it = opts.begin(); it != opts.end(); ++it)
            st.importOptions[it.key().toStdString()] = it.value().toString().toStdString();
        plan.traces.push_back(std::move(st));
    }
    const QJsonArray cells = o.value("cells").toArray();
    for (int i = 0; i < cells.size(); ++i) {
        const QJsonObject c = cells[i].toObject();
        const std::string at = "/cells/" + std::to_string(i);
        SweepCell cell;
        cell.index = c.value("cell").toInt(-1);
        cell.trace = c.value("trace").toInt(-1);
        cell.shard = c.value("shard").toInt(-1);
        if (cell.index != i)
            return bad(at + "/cell", "expected " + std::to_string(i) + " (cells are numbered in order)");
        if (cell.trace < 0 || cell.trace >= int(plan.traces.size()))
            return bad(at + "/trace", "not a trace of the plan");
        if (cell.shard < 0 || cell.shard >= plan.shards)
            return bad(at + "/shard", "not a shard of the plan (0.." + std::to_string(plan.shards - 1) + ")");
        RunRow row;
        row.id = i;
        row.mode = c.value("mode").toString().toStdString();
        row.policy = c.value("policy").toString().toStdString();
        row.queue = c.value("queue").toString().toStdString();
        row.backfill = c.value("backfill").toString().toStdString();
        row.seed = c.value("seed").toString().toULongLong();
        row.optionsJson = QJsonDocument(c.value("options").toObject()).toJson(QJsonDocument::Compact).toStdString();
        if (row.policy.empty())
            return bad(at + "/policy", "expected a policy");
        auto spec = specFromRow(row);
        if (!spec)
            return bad(at, spec.error().message);
        cell.spec = std::move(spec).value();
        plan.cells.push_back(std::move(cell));
    }
    if (planIdOf(plan) != plan.id)
        return bad("/id", "does not match the plan's content (edited by hand?): shards and merges would not recognise each other");
    return plan;
}

int shardFromEnvironment()
{
    for (const char* name : { "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX" })
        if (const char* v = std::getenv(name); v && *v) {
            char* end = nullptr;
            const long i = std::strtol(v, &end, 10);
            if (end && *end == '\0' && i >= 0 && i < 1000000)
                return int(i);
        }
    return -1;
}

std::string sweepCellKey(const std::string& planId, int index) { return "sweep." + planId + ".cell." + std::to_string(index); }

Result<std::string> sweepFileSha256(const std::string& path) { return fileSha256(path); }

} // namespace schedlab::store
