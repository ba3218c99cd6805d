// schedlab: the desktop workbench.

#include "main_window.h"

#include <QApplication>

int main(int argc, char** argv)
{
    QApplication app(argc, argv);
    QApplication::setApplicationName("schedlab");
    QApplication::setOrganizationName("schedlab");
    schedlab::app::MainWindow window;
    std::vector<std::string> files;
    for (int i = 1; i < argc; ++i)
        files.emplace_back(argv[i]);
    if (!files.empty())
        window.openTrace(files);
    window.show();
    return app.exec();
}
