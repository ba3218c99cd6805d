#include "weight_editor.h"

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

#include <cmath>

namespace schedlab::views {

void addTailFields(WeightSchema& s)
{
    s.fields.push_back(WeightSchema::number("tailScale", QObject::tr("Tail penalty scale"), 0, 100, 0.1));
    s.fields.push_back(WeightSchema::number("tailRate", QObject::tr("Tail penalty rate"), 0, 100, 0.1));
    s.fields.push_back(WeightSchema::number("tailCap", QObject::tr("Tail penalty cap"), 0, 1000, 1));
}

// One edit of the values. Edits of the same field in a row merge into one step.
class WeightEditCommand : public QUndoCommand {
public:
    WeightEditCommand(WeightEditor* editor, int field, std::vector<double> before, std::vector<double> after)
        : m_editor(editor)
        , m_field(field)
        , m_before(std::move(before))
        , m_after(std::move(after))
    {
        if (field < 0) {
            setText(QStringLiteral("edit reward"));
            return;
        }
        const WeightSchema::Field& f = editor->m_schema.fields[std::size_t(field)];
        setText(f.weight ? QStringLiteral("edit %1 weight").arg(f.name) : QStringLiteral("edit %1").arg(f.label.isEmpty() ? f.name : f.label));
    }
    void undo() override { m_editor->apply(m_before); }
    void redo() override { m_editor->apply(m_after); }
    int id() const override { return m_field >= 0 ? 1000 + m_field : -1; }
    bool mergeWith(const QUndoCommand* other) override
    {
        const auto* o = static_cast<const WeightEditCommand*>(other);
        if (o->m_field != m_field)
            return false;
        m_after = o->m_after;
        return true;
    }

private:
    WeightEditor* m_editor;
    int m_field;
    std::vector<double> m_before, m_after;
};

WeightEditor::WeightEditor(WeightSchema schema, std::vector<double> initial, QWidget* parent)
    : QWidget(parent)
    , m_schema(std::move(schema))
    , m_values(std::move(initial))
    , m_undo(new QUndoStack(this))
{
    m_values.resize(m_schema.fields.size(), 0.0);
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* presetRow = new QHBoxLayout();
    m_preset = new QComboBox(this);
    m_preset->setObjectName(m_schema.objectPrefix + "Preset");
    m_preset->addItem(tr("(custom)"));
    for (const auto& p : m_schema.presets)
        m_preset->addItem(p.first);
    presetRow->addWidget(new QLabel(tr("Preset"), this));
    presetRow->addWidget(m_preset, 1);
    // Fixed labels: the stack's "Undo edit balance weight" would widen a dock at every edit; the
    // long text goes to the tooltip. Ctrl+Z / Ctrl+Shift+Z come from the window's Edit menu.
    auto* undoButton = new QToolButton(this);
    undoButton->setObjectName(m_schema.objectPrefix + "Undo");
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
    auto* form = new QFormLayout();
    form->setRowWrapPolicy(QFormLayout::WrapLongRows); // labels above their fields in a narrow dock
    m_spins.assign(m_schema.fields.size(), nullptr);
    m_choices.assign(m_schema.fields.size(), nullptr);
    for (int i = 0; i < int(m_schema.fields.size()); ++i) {
        const WeightSchema::Field& f = m_schema.fields[std::size_t(i)];
        const QString label = f.label.isEmpty() ? f.name : f.label;
        if (!f.choices.isEmpty()) {
            auto* box = m_choices[std::size_t(i)] = new QComboBox(this);
            box->addItems(f.choices);
            form->addRow(label, box);
            connect(box, qOverload<int>(&QComboBox::currentIndexChanged), this, [this, i](int v) { edit(i, v); });
            continue;
        }
        auto* spin = m_spins[std::size_t(i)] = new QDoubleSpinBox(this);
        spin->setRange(f.lo, f.hi);
        spin->setSingleStep(f.step);
        spin->setDecimals(f.decimals);
        spin->setSuffix(f.suffix);
        spin->setKeyboardTracking(false); // one edit when typing "0.80" is done, not one per key
        connect(spin, qOverload<double>(&QDoubleSpinBox::valueChanged), this, [this, i](double v) { edit(i, v); });
        if (!f.weight) {
            form->addRow(label, spin);
            continue;
        }
        spin->setObjectName(QStringLiteral("weight_%1").arg(f.name));
        const int row = int(m_weightFields.size());
        m_weightFields.push_back(i);
        auto* slider = new QSlider(Qt::Horizontal, this);
        slider->setRange(0, 100);
        m_sliders.push_back(slider);
        grid->addWidget(new QLabel(label, this), row, 0);
        grid->addWidget(slider, row, 1);
        grid->addWidget(spin, row, 2);
        connect(slider, &QSlider::valueChanged, this, [this, i](int v) { edit(i, v / 100.0); });
    }
    layout->addLayout(grid);
    m_normalised = new QLabel(this);
    m_normalised->setObjectName(m_schema.objectPrefix + "Normalised");
    m_normalised->setWordWrap(true);
    layout->addWidget(m_normalised);
    layout->addLayout(form);
    layout->addStretch(1);
    setToolTip(m_schema.toolTip);
    connect(m_preset, qOverload<int>(&QComboBox::currentIndexChanged), this, [this](int i) {
        if (m_updating || i <= 0)
            return;
        m_undo->push(new WeightEditCommand(this, -1, m_values, m_schema.presets[std::size_t(i - 1)].second));
    });
    apply(m_values);
}

void WeightEditor::edit(int field, double value)
{
    if (m_updating)
        return;
    std::vector<double> next = m_values;
    next[std::size_t(field)] = value;
    m_undo->push(new WeightEditCommand(this, field, m_values, next));
}

void WeightEditor::setValues(const std::vector<double>& values, bool undoable)
{
    std::vector<double> v = values;
    v.resize(m_schema.fields.size(), 0.0);
    if (undoable) {
        m_undo->push(new WeightEditCommand(this, -1, m_values, v));
        return;
    }
    m_undo->clear();
    apply(v);
}

void WeightEditor::apply(const std::vector<double>& v)
{
    m_values = v;
    m_updating = true;
    for (std::size_t i = 0; i < m_values.size(); ++i) {
        if (m_choices[i])
            m_choices[i]->setCurrentIndex(int(m_values[i]));
        if (m_spins[i])
            m_spins[i]->setValue(m_values[i]);
    }
    for (std::size_t k = 0; k < m_sliders.size(); ++k)
        m_sliders[k]->setValue(int(std::lround(m_values[std::size_t(m_weightFields[k])] * 100)));
    int preset = 0;
    for (std::size_t i = 0; i < m_schema.presets.size(); ++i)
        if (m_schema.presets[i].second == m_values)
            preset = int(i) + 1;
    m_preset->setCurrentIndex(preset);
    m_updating = false;
    if (isValid()) {
        m_normalised->setStyleSheet(QString());
        m_normalised->setText(tr("normalised: %1").arg(normalisedText()));
    } else {
        m_normalised->setStyleSheet("QLabel { color: #a00; }");
        m_normalised->setText(tr("At least one weight must be above 0."));
    }
    emit valuesChanged(m_values);
}

bool WeightEditor::isValid() const
{
    double sum = 0;
    for (int f : m_weightFields)
        sum += m_values[std::size_t(f)];
    return sum > 0;
}

QString WeightEditor::normalisedText() const
{
    double sum = 0;
    for (int f : m_weightFields)
        sum += m_values[std::size_t(f)];
    QStringList parts;
    for (int f : m_weightFields)
        parts << QString::number(sum > 0 ? m_values[std::size_t(f)] / sum : 0.0, 'f', 2);
    return parts.join(QStringLiteral(" / "));
}

} // namespace schedlab::views
