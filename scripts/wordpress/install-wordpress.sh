#!/usr/bin/env bash
# The WordPress test lane's packages (test/wordpress/), from Debian's archive, where any is missing: PHP's command
# line with mysqli, Debian's WordPress and its Twenty Twenty-Three theme, and zip, unzip and xgettext for the
# plugin's zip and translation template. The MariaDB server the lane's databases live on is the machine's own
# (127.0.0.1:3306). Run by .ci/run; as root on Debian it installs, elsewhere it says in one line what to install,
# and the lane skips (or fails under REQUIRE_SERVICES=1). Debian's wordpress package brings Apache, which this
# lane never starts: the tests serve WordPress with PHP's built-in server.
set -uo pipefail

needed=()
[ -x /usr/bin/php ] || needed+=(php-cli)
{ [ -x /usr/bin/php ] && /usr/bin/php -m 2>/dev/null | grep -qx mysqli; } || needed+=(php-mysql)
[ -f /usr/share/wordpress/wp-settings.php ] || needed+=(wordpress)
[ -d /usr/share/wordpress/wp-content/themes/twentytwentythree ] || needed+=(wordpress-theme-twentytwentythree)
command -v zip >/dev/null || needed+=(zip)
command -v unzip >/dev/null || needed+=(unzip)
command -v xgettext >/dev/null || needed+=(gettext)

if [ ${#needed[@]} -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ] || [ ! -x /usr/bin/apt-get ] || [ ! -f /etc/debian_version ]; then
  echo "wordpress: install Debian's ${needed[*]} (sudo apt-get install --no-install-recommends ${needed[*]}) for the WordPress tests"
  exit 0
fi
echo "wordpress: installing Debian's ${needed[*]} for the WordPress tests"
export DEBIAN_FRONTEND=noninteractive
if ! apt-get update -qq || ! apt-get install -y -qq --no-install-recommends "${needed[@]}"; then
  echo "wordpress: apt-get could not install ${needed[*]}; the WordPress tests will say what is missing"
fi
exit 0
