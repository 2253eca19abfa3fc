#!/usr/bin/env python3
"""A synthetic ground truth for replay (docs/replay.md): a discrete-event simulation of one CPU
thread issuing work to two GPU streams, written as a Kineto-style trace.

    python3 bench/sim_trace.py OUT.json [--steps N] [--seed S] [--scale NAME=FACTOR ...]

Each step runs operators on the CPU. An operator's self time is followed by a cudaLaunchKernel call
(or cudaMemcpyAsync) that queues a kernel (a copy) on a stream: the kernel starts when both its
launch has reached the GPU (the call's start plus a launch latency that varies per launch) and its
stream is free (plus a small gap). Communication kernels go to a second stream. A step ends with
a blocking copy of the loss to the host (cudaMemcpy: it waits for its copy, which waits for
stream 7) and a cudaDeviceSynchronize, which waits for both streams.

--scale gemm=2 runs the same program (same seed: the same durations, latencies and gaps) with
every kernel named gemm twice as fast: what amdahl eval -s gemm=2 --model replay must predict.
The simulation shares no code with amdahl; it knows the machine, not the replay's rules.
"""
import argparse
import json
import random

KERNELS = [  # name, mean duration (us), stream
    ("gemm", 40.0, 7),
    ("attention", 25.0, 7),
    ("layernorm", 6.0, 7),
    ("elementwise", 3.0, 7),
    ("nccl_allreduce", 30.0, 13),
]


def simulate(steps, seed, scale):
    rng = random.Random(seed)
    events = []
    now = 0.0  # the CPU thread's clock
    free = {7: 0.0, 13: 0.0}  # when each stream is free
    last_on = {7: None, 13: None}  # the last GPU event queued on each stream: (end)
    correlation = 0

    def cpu(name, cat, start, dur, corr=None):
        args = {"correlation": corr} if corr is not None else {}
        events.append({"ph": "X", "cat": cat, "name": name, "pid": 100, "tid": 100, "ts": round(start, 3),
                       "dur": round(dur, 3), "args": args})

    def gpu(name, cat, stream, launch_start, dur, corr):
        latency = rng.uniform(4.0, 6.0)
        gap = rng.uniform(0.5, 1.5)
        start = max(launch_start + latency, free[stream] + gap)
        end = start + dur
        free[stream] = end
        last_on[stream] = end
        events.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": stream, "ts": round(start, 3),
                       "dur": round(dur, 3), "args": {"correlation": corr, "stream": stream}})
        return end

    for step in range(steps):
        step_start = now
        for op in range(rng.randint(6, 10)):
            name, mean, stream = KERNELS[rng.randrange(len(KERNELS))]
            self_time = rng.uniform(2.0, 30.0)
            launch = rng.uniform(3.0, 5.0)
            kernel = rng.uniform(0.5, 1.5) * mean / scale.get(name, 1.0)
            # The operator: its self time, then the launch call inside it.
            cpu("aten::" + name, "cpu_op", now, self_time + launch)
            correlation += 1
            cpu("cudaLaunchKernel", "cuda_runtime", now + self_time, launch, correlation)
            gpu(name, "kernel", stream, now + self_time, kernel, correlation)
            now += self_time + launch + rng.uniform(0.5, 2.0)  # untraced host work between operators
        # The loss to the host: a blocking copy on stream 7 (its call waits for it).
        correlation += 1
        call_start = now
        copy_end = gpu("Memcpy DtoH (Device -> Pageable)", "gpu_memcpy", 7, call_start, rng.uniform(2.0, 4.0),
                       correlation)
        call_end = max(call_start, copy_end) + rng.uniform(1.0, 3.0)
        cpu("cudaMemcpy", "cuda_runtime", call_start, call_end - call_start, correlation)
        now = call_end + rng.uniform(0.5, 2.0)
        # The end of the step waits for every stream.
        sync_start = now
        sync_end = max(sync_start, free[7], free[13]) + rng.uniform(1.0, 3.0)
        cpu("cudaDeviceSynchronize", "cuda_runtime", sync_start, sync_end - sync_start)
        now = sync_end + rng.uniform(5.0, 20.0)
        events.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step, "pid": 100,
                       "tid": 100, "ts": round(step_start, 3), "dur": round(sync_end - step_start, 3)})
    return events


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--steps", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--scale", action="append", default=[], metavar="NAME=FACTOR")
    args = parser.parse_args()
    scale = {}
    for item in args.scale:
        name, factor = item.split("=")
        scale[name] = float(factor)
    events = simulate(args.steps, args.seed, scale)
    with open(args.out, "w") as out:
        out.write('{"schemaVersion": 1, "traceEvents": [\n')
        out.write(",\n".join(json.dumps(e, separators=(", ", ": ")) for e in events))
        out.write("\n]}\n")


if __name__ == "__main__":
    main()
