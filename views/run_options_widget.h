#pragma once
// The Policies dock's contents: the placement policies to run, the run mode and its options, the
// seeds and the KubeSchedulerConfiguration for k8s-default. What the user sets here is one value,
// spec(); the window never reads these widgets.

#include "base/result.h"
#include "sim/run_spec.h"
#include "trace/load_profile.h"

#include <QWidget>

#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QLineEdit;
class QListWidget;
class QPushButton;

namespace schedlab::views {

class RunOptionsWidget : public QWidget {
    Q_OBJECT
public:
    /// The Mode box's items, in order.
    enum class ModeChoice { Auto = 0, Timed = 1, Fill = 2 };

    explicit RunOptionsWidget(QWidget* parent = nullptr);

    /// The mode that will run and its options, with the scheduler configuration, replaying
    /// `window` of the trace in timed mode (none: all of it); no policy, no seed.
    sim::RunSpec spec(std::optional<trace::TimeSpan> window = std::nullopt) const;
    /// The checked placement policies, in list order.
    std::vector<std::string> checkedPolicies() const;
    /// The seeds typed (N, A-B or a comma list); an error that says what is wrong with them.
    Result<std::vector<uint64_t>> seeds() const;
    /// The fill experiments' inflation ratio (also when the fill mode is not chosen).
    double fillRatio() const;

    ModeChoice modeChoice() const;
    /// Selects a mode as the program would (modeChosen is not emitted; modeChanged is).
    void setModeChoice(ModeChoice choice);
    /// What "auto" runs on the open trace (false: timed replay, also with no trace).
    void setAutoFill(bool fill);
    /// The fill experiment will run: chosen, or auto on a trace it suits.
    bool fillChosen() const;

    /// Uses the KubeSchedulerConfiguration at `path` for k8s-default / k8s-sampling runs (empty:
    /// the built-in defaults) and remembers it: schedulerConfigSet (a file) or, false,
    /// schedulerConfigFailed when it does not parse.
    bool setSchedulerConfig(const QString& path);
    /// The scheduler configuration button's text: the file's name or "built-in".
    QString schedulerConfigLabel() const;

signals:
    /// The Run button was clicked.
    void runRequested();
    /// The mode that will run may have changed (a choice, or auto on another trace).
    void modeChanged();
    /// The user picked a mode in the box (not emitted by setModeChoice).
    void modeChosen();
    /// A configuration file failed to read.
    void schedulerConfigFailed(const QString& error);
    /// A configuration file is in use; `summary` says what it sets.
    void schedulerConfigSet(const QString& summary);

private:
    QWidget* buildRoomRow();
    QWidget* buildSchedulerConfigRow();
    void restoreSchedulerConfig();
    void updateControls();

    QListWidget* m_policyList = nullptr;
    QComboBox* m_mode = nullptr;
    QComboBox* m_queue = nullptr;
    QComboBox* m_backfill = nullptr;
    QComboBox* m_head = nullptr;
    QComboBox* m_preemption = nullptr;
    QComboBox* m_migration = nullptr;
    QDoubleSpinBox* m_ratio = nullptr;
    QCheckBox* m_trim = nullptr;
    QLineEdit* m_seeds = nullptr;
    QPushButton* m_schedulerConfigButton = nullptr;
    std::string m_schedulerConfig; ///< KubeSchedulerConfiguration YAML; empty = built-in
    bool m_autoFill = false;
};

} // namespace schedlab::views
