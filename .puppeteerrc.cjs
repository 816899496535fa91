// Debian's chromium is used (see scripts/setup.sh); the registry's browser download does not work here.
module.exports = { skipDownload: true };
