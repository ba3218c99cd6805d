# Sourced by build.sh, asan.sh and fuzz.sh (from the checkout's root). ccache then keys objects on
# paths relative to the checkout and ignores the working directory, so a fresh clone in another
# folder (CI) reuses what any checkout on this machine compiled.
export CCACHE_BASEDIR="${CCACHE_BASEDIR:-$PWD}"
export CCACHE_NOHASHDIR="${CCACHE_NOHASHDIR:-1}"
