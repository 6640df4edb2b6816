# perfgate with CUDA, for container jobs and `docker run --gpus all`.
#
#   docker build -t perfgate .
#   docker run --rm --gpus all -v "$PWD:/work" -w /work perfgate run --config .perfgate.yml
#
# Build on the CUDA 12.x devel image: gorgonia.org/cu v0.9.6 does not compile
# against CUDA 13 headers. The runtime image of the same version has NVRTC,
# which perfgate uses to compile kernels at run time; the driver (libcuda)
# comes from the host through the NVIDIA Container Toolkit.
ARG CUDA_VERSION=12.8.1
ARG UBUNTU=ubuntu24.04

FROM nvidia/cuda:${CUDA_VERSION}-devel-${UBUNTU} AS build
# Keep GO_VERSION equal to the go line of go.mod.
ARG GO_VERSION=1.26.8
ARG TARGETARCH=amd64
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates curl git \
 && rm -rf /var/lib/apt/lists/* \
 && curl -fsSL "https://go.dev/dl/go${GO_VERSION}.linux-${TARGETARCH}.tar.gz" | tar -C /usr/local -xz
ENV PATH=/usr/local/go/bin:$PATH
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
# cuda.h (driver API) and nvrtc.h come from the devel image; libcuda.so is
# linked against the stub (the real one is the host driver's, at run time).
ENV CGO_ENABLED=1 \
    CGO_CFLAGS="-I/usr/local/cuda/include" \
    CGO_LDFLAGS="-L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs"
RUN grep -q '^#define CUDA_VERSION 12' /usr/local/cuda/include/cuda.h \
 && test -f /usr/local/cuda/include/nvrtc.h \
 && go build -tags cuda -trimpath -o /out/perfgate ./cmd/perfgate

FROM nvidia/cuda:${CUDA_VERSION}-runtime-${UBUNTU}
RUN apt-get update \
 && apt-get install -y --no-install-recommends ca-certificates git \
 && rm -rf /var/lib/apt/lists/*
COPY --from=build /out/perfgate /usr/local/bin/perfgate
ENV NVIDIA_DRIVER_CAPABILITIES=compute,utility
ENTRYPOINT ["perfgate"]
