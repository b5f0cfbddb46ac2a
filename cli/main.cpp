#include "app.hpp"

int main(int argc, char** argv) { return cidrcheck::cli::run(argc, argv); }
