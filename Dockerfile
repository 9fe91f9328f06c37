# imgdiff in a container: built with the Swift toolchain, run on debian:12-slim with exactly the
# packages the .deb depends on (scripts/package reads them from the binary with dpkg-shlibdeps).
#   docker build -t imgdiff .
#   docker run --rm --user "$(id -u):$(id -g)" -v "$PWD:/work" -w /work imgdiff batch Snapshots/ref Snapshots/new --out report
# (--user: the report is written as you, not as root; .dockerignore keeps build folders out of
# the context)
# It was not built where it was written (no registry access there); scripts/check-package runs
# the same binary in a root holding only these packages.

FROM swift:6.2-bookworm AS build
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends pkg-config libpng-dev libjpeg62-turbo-dev libisal-dev libdeflate-dev libmagickwand-dev git \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY . .
RUN commit="$(git rev-parse --short=12 HEAD 2>/dev/null || echo unknown)" \
    && swift build -c release --static-swift-stdlib --product imgdiff -Xcc "-DIMGDIFF_COMMIT=\"$commit\"" \
    && install -D -m 755 .build/release/imgdiff /out/imgdiff

FROM debian:12-slim
RUN apt-get update -qq \
    && apt-get install -y -qq --no-install-recommends libc6 libgcc-s1 libstdc++6 libpng16-16 libjpeg62-turbo libisal2 libdeflate0 zlib1g libmagickwand-6.q16-6 \
    && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/imgdiff /usr/bin/imgdiff
ENTRYPOINT ["imgdiff"]
