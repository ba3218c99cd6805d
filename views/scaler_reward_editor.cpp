#include "scaler_reward_editor.h"

namespace schedlab::views {

namespace {

std::vector<double> valuesOf(const autoscale::ScalerReward& r) { return { r.latency, r.cost, r.sla, r.tailScale, r.tailRate, r.tailCap }; }

WeightSchema schema()
{
    WeightSchema s;
    for (const char* w : { "latency", "cost", "sla" })
        s.fields.push_back(WeightSchema::weight(QString::fromLatin1(w)));
    addTailFields(s);
    for (const char* p : { "default", "cost-first", "slo-first" })
        s.presets.emplace_back(QString::fromLatin1(p), valuesOf(autoscale::ScalerReward::preset(p).value()));
    s.objectPrefix = QStringLiteral("scalerReward");
    s.toolTip = QObject::tr("reward per 15-s period = -(latency x late share + cost x over-provisioning + sla x [late > 1 %]),\n"
                            "weights normalised, minus the tail penalty on the period's p99 above the SLO\n"
                            "(core/autoscale/README.md, \"Learned scaler\")");
    return s;
}

} // namespace

ScalerRewardEditor::ScalerRewardEditor(QWidget* parent)
    : WeightEditor(schema(), valuesOf(autoscale::ScalerReward {}), parent)
{
}

autoscale::ScalerReward ScalerRewardEditor::reward() const
{
    const std::vector<double>& v = values();
    autoscale::ScalerReward r;
    r.latency = v[0];
    r.cost = v[1];
    r.sla = v[2];
    r.tailScale = v[3];
    r.tailRate = v[4];
    r.tailCap = v[5];
    return r;
}

void ScalerRewardEditor::setReward(const autoscale::ScalerReward& r, bool undoable) { setValues(valuesOf(r), undoable); }

} // namespace schedlab::views
