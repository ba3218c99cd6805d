#include "main_window.h"

#include "trace/trace_loader.h"
#include "trace/trace_summary.h"

#include <QAction>
#include <QApplication>
#include <QFileDialog>
#include <QFontDatabase>
#include <QLabel>
#include <QMenuBar>
#include <QPlainTextEdit>
#include <QStatusBar>
#include <QVBoxLayout>

namespace schedlab::app {

MainWindow::MainWindow(QWidget* parent)
    : QMainWindow(parent)
{
    setWindowTitle(tr("schedlab"));
    auto* central = new QWidget(this);
    auto* layout = new QVBoxLayout(central);
    m_banner = new QLabel(central);
    m_banner->setWordWrap(true);
    m_banner->setVisible(false);
    m_banner->setStyleSheet("QLabel { background: #fde2e1; color: #611; padding: 6px; border: 1px solid #e99; }");
    m_summary = new QPlainTextEdit(central);
    m_summary->setReadOnly(true);
    m_summary->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_summary->setPlaceholderText(tr("Open a trace (File > Open Trace, Ctrl+O) to see its summary."));
    layout->addWidget(m_banner);
    layout->addWidget(m_summary);
    setCentralWidget(central);

    QMenu* file = menuBar()->addMenu(tr("&File"));
    QAction* open = file->addAction(tr("&Open Trace..."), this, &MainWindow::chooseTrace);
    open->setShortcut(QKeySequence::Open);
    file->addSeparator();
    QAction* quit = file->addAction(tr("&Quit"), qApp, &QApplication::quit);
    quit->setShortcut(QKeySequence::Quit);
    statusBar()->showMessage(tr("Ready"));
    resize(1000, 700);
}

void MainWindow::chooseTrace()
{
    const QStringList files = QFileDialog::getOpenFileNames(this, tr("Open Trace"), QString(),
        tr("Traces (*.csv *.gz *.swf *.sltrace);;All files (*)"));
    if (files.isEmpty())
        return;
    std::vector<std::string> paths;
    for (const QString& f : files)
        paths.push_back(f.toStdString());
    openTrace(paths);
}

void MainWindow::openTrace(const std::vector<std::string>& paths)
{
    auto loaded = trace::loadTrace(paths);
    if (!loaded) {
        m_banner->setText(QString::fromStdString(loaded.error().toString()));
        m_banner->setVisible(true);
        statusBar()->showMessage(tr("Import failed"));
        return;
    }
    m_banner->setVisible(false);
    m_summary->setPlainText(QString::fromStdString(trace::toText(trace::summarize(loaded.value()))));
    setWindowTitle(tr("schedlab - %1").arg(QString::fromStdString(trace::baseName(paths.front()))));
    statusBar()->showMessage(tr("Loaded %1 jobs on %2 nodes").arg(loaded->trace.jobs.size()).arg(loaded->trace.nodes.size()));
}

} // namespace schedlab::app
