#!/bin/sh
# System packages the project needs beyond Python: CJK fonts for the PDF reports
# (fonts-wqy-microhei), poppler-utils (pdftotext for the PDF tests) and Chromium
# for the real-browser test. Installs only what is missing; never fails the build
# when it cannot install (no root, no network): the tests that need a missing
# tool skip with a message that names it.
set -u
want="fonts-wqy-microhei poppler-utils chromium"
missing=""
for p in $want; do
  dpkg -s "$p" >/dev/null 2>&1 || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" != "0" ]; then
  SUDO="sudo -n"
else
  SUDO=""
fi
echo "installing system packages:$missing"
if ! { $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing; } >/tmp/install-system.log 2>&1; then
  echo "warning: could not install$missing (see /tmp/install-system.log); PDF/browser tests will skip" >&2
fi
exit 0
