// schedlab: the desktop workbench.
//   schedlab [FILE...]                   open the files as one trace (default: the bundled sample) and
//                                        replay the default policies
//   schedlab --screenshot OUT.png [--policies a,b] [FILE...]
//                                        the same offscreen-able: when the runs finish, save the
//                                        window to OUT.png and exit

#include "main_window.h"

#include <QApplication>
#include <QCommandLineParser>
#include <QFileInfo>
#include <QTimer>

#include <cstdio>

namespace {
QString bundledSample()
{
    for (const QString& candidate :
        { QStringLiteral(SCHEDLAB_SOURCE_DIR "/samples/sample.sltrace"), QStringLiteral("samples/sample.sltrace") })
        if (QFileInfo::exists(candidate))
            return candidate;
    return {};
}
} // namespace

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("schedlab");
    QApplication::setOrganizationName("schedlab");

    QCommandLineParser parser;
    parser.setApplicationDescription("schedlab workbench");
    parser.addHelpOption();
    QCommandLineOption screenshot("screenshot", "Render the window to <png> once the runs finish, then exit.", "png");
    QCommandLineOption policies("policies", "Comma-separated placement policies to run at start.", "list");
    QCommandLineOption noRun("no-run", "Open the trace without running any policy.");
    parser.addOption(screenshot);
    parser.addOption(policies);
    parser.addOption(noRun);
    parser.addPositionalArgument("files", "Trace files to open as one trace (default: the bundled sample).");
    parser.process(app);

    schedlab::app::MainWindow window;
    if (parser.isSet(screenshot))
        window.resize(1280, 800); // fixed size: screenshots do not depend on a saved layout
    std::vector<std::string> files;
    for (const QString& f : parser.positionalArguments())
        files.push_back(f.toStdString());
    if (files.empty()) {
        const QString sample = bundledSample();
        if (!sample.isEmpty())
            files.push_back(sample.toStdString());
    }
    window.show();
    const bool loaded = !files.empty() && window.openTrace(files);

    auto saveAndQuit = [&window, &parser, &screenshot] {
        const QString out = parser.value(screenshot);
        const bool ok = window.grab().save(out, "PNG");
        std::fprintf(ok ? stdout : stderr, "%s %s (window %dx%d)\n", ok ? "wrote" : "cannot write", qPrintable(out),
            window.width(), window.height());
        QApplication::exit(ok ? 0 : 1);
    };
    const bool willRun = loaded && !parser.isSet(noRun);
    if (parser.isSet(screenshot)) {
        if (willRun)
            QObject::connect(&window, &schedlab::app::MainWindow::batchDone, &window, [&] { QTimer::singleShot(50, saveAndQuit); });
        else
            QTimer::singleShot(50, saveAndQuit);
    }
    if (willRun) {
        std::vector<std::string> list;
        for (const QString& p : parser.value(policies).split(',', Qt::SkipEmptyParts))
            list.push_back(p.trimmed().toStdString());
        QTimer::singleShot(0, &window, [&window, list] { window.runPolicies(list); });
    }
    return app.exec();
}
