#pragma once
// The replica policy's reward editor (core/autoscale/scaler_features.h, ScalerReward): the weight
// editor (weight_editor.h) with the latency, cost and SLA weights, the tail penalty and the
// presets default, cost-first, slo-first.

#include "weight_editor.h"

#include "autoscale/scaler_features.h"

namespace schedlab::views {

class ScalerRewardEditor : public WeightEditor {
    Q_OBJECT
public:
    explicit ScalerRewardEditor(QWidget* parent = nullptr);
    autoscale::ScalerReward reward() const;
    void setReward(const autoscale::ScalerReward& r, bool undoable = true);
};

} // namespace schedlab::views
