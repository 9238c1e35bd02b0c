/*
 * The system headers of every x86 vector file (an ISA's versions, a tile family), included first so that the
 * builder can precompile them once (a gcc `.gch` beside this header, plugin/addon/precompiled.ts): parsing
 * <immintrin.h> alone costs 0.35-0.45 s of CPU in each compile, close to half of a small file's. Nothing of
 * polykern's own here: the precompiled header is valid for every addon built with the same compiler and flags.
 */
#ifndef POLYKERN_X86_SYSTEM_H
#define POLYKERN_X86_SYSTEM_H

#include <immintrin.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#endif
