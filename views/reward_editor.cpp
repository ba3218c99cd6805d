#include "reward_editor.h"

#include <QComboBox>
#include <QDoubleSpinBox>
#include <QFormLayout>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QSlider>
#include <QToolButton>
#include <QUndoCommand>
#include <QUndoStack>
#include <QVBoxLayout>

namespace schedlab::views {

namespace {
const char* kWeightNames[4] = { "balance", "packing", "success", "custom" };
double& weightRef(rl::RewardConfig& c, int i)
{
    switch (i) {
    case 0:
        return c.balance;
    case 1:
        return c.packing;
    case 2:
        return c.success;
    default:
        return c.custom;
    }
}
double weightOf(const rl::RewardConfig& c, int i) { return weightRef(const_cast<rl::RewardConfig&>(c), i); }
} // namespace

// One edit of the configuration. Edits of the same field in a row merge into one step, so
// dragging a slider is undone at once.
class RewardEditCommand : public QUndoCommand {
public:
    RewardEditCommand(RewardEditor* editor, int field, rl::RewardConfig before, rl::RewardConfig after)
        : m_editor(editor)
        , m_field(field)
        , m_before(before)
        , m_after(after)
    {
        setText(field >= 0 && field < 4 ? QStringLiteral("edit %1 weight").arg(kWeightNames[field]) : QStringLiteral("edit reward"));
    }
    void undo() override { m_editor->apply(m_before); }
    void redo() override { m_editor->apply(m_after); }
    int id() const override { return m_field >= 0 ? 1000 + m_field : -1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const RewardEditCommand*>(other);
        if (o->m_field != m_field)
            return false;
        m_after = o->m_after;
        return true;
    }

private:
    RewardEditor* m_editor;
    int m_field;
    rl::RewardConfig m_before, m_after;
};

RewardEditor::RewardEditor(QWidget* parent)
    : QWidget(parent)
    , m_undo(new QUndoStack(this))
{
    auto* layout = new QVBoxLayout(this);
    auto* presetRow = new QHBoxLayout();
    m_preset = new QComboBox(this);
    m_preset->setObjectName("rewardPreset");
    m_preset->addItems({ tr("(custom)"), "default", "latency-first", "packing-first" });
    presetRow->addWidget(new QLabel(tr("Preset"), this));
    presetRow->addWidget(m_preset, 1);
    // Fixed labels: the stack's "Undo edit balance weight" would widen the dock at every edit; the
    // long text goes to the tooltip. Ctrl+Z / Ctrl+Shift+Z come from the window's Edit menu.
    auto* undoButton = new QToolButton(this);
    undoButton->setObjectName("rewardUndo");
    undoButton->setText(tr("Undo"));
    undoButton->setEnabled(false);
    connect(undoButton, &QToolButton::clicked, m_undo, &QUndoStack::undo);
    connect(m_undo, &QUndoStack::canUndoChanged, undoButton, &QToolButton::setEnabled);
    connect(m_undo, &QUndoStack::undoTextChanged, undoButton, [undoButton](const QString& t) { undoButton->setToolTip(tr("Undo %1").arg(t)); });
    auto* redoButton = new QToolButton(this);
    redoButton->setText(tr("Redo"));
    redoButton->setEnabled(false);
    connect(redoButton, &QToolButton::clicked, m_undo, &QUndoStack::redo);
    connect(m_undo, &QUndoStack::canRedoChanged, redoButton, &QToolButton::setEnabled);
    connect(m_undo, &QUndoStack::redoTextChanged, redoButton, [redoButton](const QString& t) { redoButton->setToolTip(tr("Redo %1").arg(t)); });
    presetRow->addWidget(undoButton);
    presetRow->addWidget(redoButton);
    layout->addLayout(presetRow);

    auto* grid = new QGridLayout();
    for (int i = 0; i < 4; ++i) {
        auto* spin = m_spins[std::size_t(i)] = new QDoubleSpinBox(this);
        spin->setRange(0, 1);
        spin->setSingleStep(0.05);
        spin->setDecimals(2);
        spin->setKeyboardTracking(false); // one edit when typing "0.80" is done, not one per key (which lost the text)
        spin->setObjectName(QStringLiteral("weight_%1").arg(kWeightNames[i]));
        auto* slider = m_sliders[std::size_t(i)] = new QSlider(Qt::Horizontal, this);
        slider->setRange(0, 100);
        grid->addWidget(new QLabel(kWeightNames[i], this), i, 0);
        grid->addWidget(slider, i, 1);
        grid->addWidget(spin, i, 2);
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, i](double v) {
            if (m_updating)
                return;
            rl::RewardConfig next = m_config;
            weightRef(next, i) = v;
            edit(i, next);
        });
        connect(slider, &QSlider::valueChanged, this, [this, i](int v) {
            if (m_updating)
                return;
            rl::RewardConfig next = m_config;
            weightRef(next, i) = v / 100.0;
            edit(i, next);
        });
    }
    layout->addLayout(grid);
    m_normalised = new QLabel(this);
    m_normalised->setObjectName("rewardNormalised");
    m_normalised->setWordWrap(true);
    layout->addWidget(m_normalised);

    auto* form = new QFormLayout();
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // labels above their fields in a narrow dock
    m_custom = new QComboBox(this);
    m_custom->addItems({ "energy", "fragmentation", "wait" });
    form->addRow(tr("Custom term"), m_custom);
    auto spin = [this](double lo, double hi, double step, const QString& suffix) {
        auto* s = new QDoubleSpinBox(this);
        s->setRange(lo, hi);
        s->setSingleStep(step);
        s->setSuffix(suffix);
        return s;
    };
    m_target = spin(1, 1e7, 60, tr(" s"));
    m_scale = spin(0, 100, 0.1, QString());
    m_rate = spin(0, 100, 0.1, QString());
    m_cap = spin(0, 1000, 1, QString());
    form->addRow(tr("p99 wait target"), m_target);
    form->addRow(tr("Tail penalty scale"), m_scale);
    form->addRow(tr("Tail penalty rate"), m_rate);
    form->addRow(tr("Tail penalty cap"), m_cap);
    layout->addLayout(form);
    layout->addStretch(1);
    setToolTip(tr("reward = normalised weights x (balance, packing, success, custom) + tail penalty\n"
                  "tail = -scale x min(cap, exp(rate x (wait - target) / target) - 1) once wait > target"));

    connect(m_custom, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (m_updating)
            return;
        rl::RewardConfig next = m_config;
        next.customTerm = rl::CustomTerm(i);
        edit(4, next);
    });
    const std::array<std::pair<QDoubleSpinBox*, double rl::RewardConfig::*>, 4> tail = { std::pair { m_target, &rl::RewardConfig::p99TargetS },
        std::pair { m_scale, &rl::RewardConfig::tailScale }, std::pair { m_rate, &rl::RewardConfig::tailRate },
        std::pair { m_cap, &rl::RewardConfig::tailCap } };
    for (std::size_t k = 0; k < tail.size(); ++k) {
        auto [box, member] = tail[k];
        connect(box, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, member = member, k](double v) {
            if (m_updating)
                return;
            rl::RewardConfig next = m_config;
            next.*member = v;
            edit(5 + int(k), next);
        });
    }
    connect(m_preset, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (m_updating || i <= 0)
            return;
        auto p = rl::RewardConfig::preset(m_preset->itemText(i).toStdString());
        if (p)
            m_undo->push(new RewardEditCommand(this, -1, m_config, p.value()));
    });
    apply(m_config);
}

void RewardEditor::edit(int field, const rl::RewardConfig& next) { m_undo->push(new RewardEditCommand(this, field, m_config, next)); }

void RewardEditor::setConfig(const rl::RewardConfig& c, bool undoable)
{
    if (undoable) {
        m_undo->push(new RewardEditCommand(this, -1, m_config, c));
        return;
    }
    m_undo->clear();
    apply(c);
}

void RewardEditor::apply(const rl::RewardConfig& c)
{
    m_config = c;
    m_updating = true;
    for (int i = 0; i < 4; ++i) {
        m_spins[std::size_t(i)]->setValue(weightOf(c, i));
        m_sliders[std::size_t(i)]->setValue(int(std::lround(weightOf(c, i) * 100)));
    }
    m_custom->setCurrentIndex(int(c.customTerm));
    m_target->setValue(c.p99TargetS);
    m_scale->setValue(c.tailScale);
    m_rate->setValue(c.tailRate);
    m_cap->setValue(c.tailCap);
    int preset = 0;
    for (int i = 1; i < m_preset->count(); ++i)
        if (auto p = rl::RewardConfig::preset(m_preset->itemText(i).toStdString()); p && p->toString() == c.toString())
            preset = i;
    m_preset->setCurrentIndex(preset);
    m_updating = false;
    if (isValid()) {
        m_normalised->setStyleSheet(QString());
        m_normalised->setText(tr("normalised: %1").arg(normalisedText()));
    } else {
        m_normalised->setStyleSheet("QLabel { color: #a00; }");
        m_normalised->setText(tr("At least one weight must be above 0."));
    }
    emit changed(m_config);
}

bool RewardEditor::isValid() const { return m_config.balance + m_config.packing + m_config.success + m_config.custom > 0; }

QString RewardEditor::normalisedText() const
{
    const auto w = m_config.normalised();
    return QStringLiteral("%1 / %2 / %3 / %4").arg(w[0], 0, 'f', 2).arg(w[1], 0, 'f', 2).arg(w[2], 0, 'f', 2).arg(w[3], 0, 'f', 2);
}

} // namespace schedlab::views
