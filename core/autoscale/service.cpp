// Service files (service.h).

#include "service.h"

#include <QByteArray>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>

namespace schedlab::autoscale {

namespace {

struct Reader {
    std::string path;
    Error error;
    bool failed = false;

    bool fail(const std::string& at, const std::string& what)
    {
        if (!failed)
            error = makeError(ErrorCode::Format, at + ": " + what, path);
        failed = true;
        return false;
    }
    /// A number in [lo, hi] at o[key] when present.
    bool number(const QJsonObject& o, const char* key, const std::string& at, double lo, double hi, double& out)
    {
        if (!o.contains(key))
            return true;
        const QJsonValue v = o.value(key);
        if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < lo || v.toDouble() > hi)
            return fail(at + "/" + key, "expected a number in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
        out = v.toDouble();
        return true;
    }
    bool integer(const QJsonObject& o, const char* key, const std::string& at, int lo, int hi, int& out)
    {
        double d = out;
        if (!number(o, key, at, lo, hi, d))
            return false;
        if (d != std::floor(d))
            return fail(at + "/" + key, "expected a whole number");
        out = int(d);
        return true;
    }
    bool rules(const QJsonObject& o, const std::string& at, HpaRules& r)
    {
        if (!integer(o, "stabilizationWindowSeconds", at, 0, 3600, r.stabilizationS))
            return false;
        if (o.contains("selectPolicy")) {
            const QString s = o.value("selectPolicy").toString();
            if (s == "Max")
                r.select = HpaRules::Max;
            else if (s == "Min")
                r.select = HpaRules::Min;
            else if (s == "Disabled")
                r.select = HpaRules::Disabled;
            else
                return fail(at + "/selectPolicy", "'" + s.toStdString() + "' is not Max, Min or Disabled");
        }
        if (o.contains("policies")) {
            r.policies.clear();
            const QJsonArray a = o.value("policies").toArray();
            for (int i = 0; i < a.size(); ++i) {
                const std::string pat = at + "/policies/" + std::to_string(i);
                const QJsonObject p = a[i].toObject();
                HpaPolicy hp;
                const QString type = p.value("type").toString();
                if (type != "Pods" && type != "Percent")
                    return fail(pat + "/type", "'" + type.toStdString() + "' is not Pods or Percent");
                hp.type = type == "Pods" ? HpaPolicy::Pods : HpaPolicy::Percent;
                if (!p.contains("value") || !p.contains("periodSeconds"))
                    return fail(pat, "needs value and periodSeconds");
                if (!integer(p, "value", pat, 1, 100000, hp.value) || !integer(p, "periodSeconds", pat, 1, 1800, hp.periodS))
                    return false;
                r.policies.push_back(hp);
            }
        }
        return true;
    }
};

} // namespace

Result<ServiceConfig> readServiceConfig(const std::string& path)
{
    QFile f(QString::fromStdString(path));
    if (!f.open(QIODevice::ReadOnly))
        return makeError(ErrorCode::Io, "cannot read: " + f.errorString().toStdString(), path);
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject())
        return makeError(ErrorCode::Parse, "not a service file (JSON object): " + err.errorString().toStdString() + " at byte " + std::to_string(err.offset), path);
    const QJsonObject o = doc.object();
    ServiceConfig c;
    Reader r { path, {}, false };
    double serviceMs = c.serviceTimeS * 1000, sloMs = c.sloP99S * 1000;
    r.number(o, "serviceTimeMs", "", 0.001, 3.6e6, serviceMs) && r.number(o, "targetUtilization", "", 0.01, 1.0, c.targetUtilization)
        && r.number(o, "startupDelayS", "", 0, 86400, c.startupDelayS) && r.integer(o, "minReplicas", "", 0, 100000, c.minReplicas)
        && r.integer(o, "maxReplicas", "", 1, 100000, c.maxReplicas) && r.integer(o, "initialReplicas", "", -1, 100000, c.initialReplicas)
        && r.number(o, "costPerReplicaHour", "", 0, 1e6, c.costPerReplicaHour) && r.number(o, "sloP99Ms", "", 0.001, 3.6e6, sloMs)
        && r.integer(o, "maxChangePerDecision", "", 0, 100000, c.maxChangePerDecision);
    if (!r.failed && c.minReplicas > c.maxReplicas)
        r.fail("/minReplicas", "above maxReplicas");
    const QJsonArray overrides = o.value("overrides").toArray();
    for (int i = 0; i < overrides.size() && !r.failed; ++i) {
        const std::string at = "/overrides/" + std::to_string(i);
        const QJsonObject w = overrides[i].toObject();
        OverrideWindow ow;
        if (!w.contains("fromS") || !w.contains("toS") || !w.contains("replicas")) {
            r.fail(at, "needs fromS, toS and replicas");
            break;
        }
        if (r.number(w, "fromS", at, 0, 1e10, ow.fromS) && r.number(w, "toS", at, 0, 1e10, ow.toS)
            && r.integer(w, "replicas", at, 0, 100000, ow.replicas) && ow.toS <= ow.fromS)
            r.fail(at + "/toS", "must be after fromS");
        c.overrides.push_back(ow);
    }
    if (!r.failed && o.contains("hpa")) {
        const QJsonObject h = o.value("hpa").toObject();
        r.number(h, "tolerance", "/hpa", 0, 1, c.hpa.tolerance) && r.number(h, "syncPeriodSeconds", "/hpa", 1, 3600, c.hpa.syncPeriodS);
        const QJsonObject b = h.value("behavior").toObject();
        if (!r.failed && b.contains("scaleUp"))
            r.rules(b.value("scaleUp").toObject(), "/hpa/behavior/scaleUp", c.hpa.scaleUp);
        if (!r.failed && b.contains("scaleDown"))
            r.rules(b.value("scaleDown").toObject(), "/hpa/behavior/scaleDown", c.hpa.scaleDown);
    }
    if (r.failed)
        return r.error;
    c.serviceTimeS = serviceMs / 1000;
    c.sloP99S = sloMs / 1000;
    return c;
}

} // namespace schedlab::autoscale
