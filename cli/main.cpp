#include "app.hpp"

#include <csignal>

int main(int argc, char** argv) {
  // A write past the file size limit (ulimit -f) then fails with EFBIG, which the
  // writers report (exit 2, the old file intact), rather than killing the process
  // and leaving its temporary file behind.
  std::signal(SIGXFSZ, SIG_IGN);
  return cidrcheck::cli::run(argc, argv);
}
