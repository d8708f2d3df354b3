/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a run spends its CPU, measured by the run itself: with
 * MAKEDUMPFILE_STAGE_TIMES=1 in the environment, each thread's CPU time
 * (CLOCK_THREAD_CPUTIME_ID) is charged to the stage it is in, and the
 * totals are printed on standard error at the end, with the anonymous
 * memory (RssAnon) beside the peak of all memory (VmHWM): mapped pages
 * of the dump are page cache, not the program's own.  make bench reads
 * the line, so that a regression in one stage shows even when the whole
 * run hides it.
 *
 * Stages change a batch of pages at a time, not a page, so that the
 * clock's cost stays out of the figures; when the variable is unset a
 * change is one test of a flag.
 */
#ifndef MDF_UTIL_STAGE_TIMES_H
#define MDF_UTIL_STAGE_TIMES_H

#include <stdbool.h>

enum run_stage {
	/* Opening the dump, symbols, types, the page scan's set-up. */
	STAGE_SETUP,
	/* Deciding which pages to keep, a cycle at a time. */
	STAGE_CLASSIFY,
	/* Getting the kept pages' bytes from the input. */
	STAGE_READ,
	/* The zero-page test and the codec, on whichever thread. */
	STAGE_COMPRESS,
	/* Laying out and writing descriptors and data. */
	STAGE_WRITE,
	STAGE_COUNT
};

extern bool stage_times_on;

/* Reads the environment; the calling thread starts in STAGE_SETUP. */
void stage_times_init(void);

enum run_stage stage_times_switch(enum run_stage stage);

/*
 * Charges the calling thread's time from now on to @stage; returns the
 * stage it was in, for the caller to go back to.
 */
static inline enum run_stage stage_enter(enum run_stage stage)
{
	return stage_times_on ? stage_times_switch(stage) : stage;
}

/* A thread that ends charges what it has left to its stage. */
void stage_thread_end(void);

/* Notes the anonymous memory now, for the report's peak of it. */
void stage_times_sample_memory(void);

/* Prints the totals on standard error, when measured. */
void stage_times_report(void);

#endif
