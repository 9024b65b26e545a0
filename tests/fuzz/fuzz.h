/* SPDX-License-Identifier: Apache-2.0 */
/*
 * fuzz.h: what every libFuzzer target in tests/fuzz/ shares.
 *
 * Each tests/fuzz/NAME.c defines LLVMFuzzerTestOneInput() and hands the
 * input buffer to one parser of untrusted input, as the harness would;
 * `make fuzz` builds them with clang (-fsanitize=fuzzer,address,undefined)
 * into build/fuzz/ and tests/fuzz/run.sh runs each over its corpus
 * (tests/fuzz/corpus/NAME/), after replaying the crashes once found
 * (tests/fuzz/regress/NAME/).
 *
 * Besides "no crash, no leak, no undefined behaviour", a target may check
 * what the parser promises (FUZZ_ASSERT): that is how a wrong answer, not
 * only a crash, becomes a finding.
 */
#ifndef SCALETEST_FUZZ_H
#define SCALETEST_FUZZ_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json.h>

#include "lib/util.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerInitialize(int *argc, char ***argv);

#define FUZZ_ASSERT(cond)						\
	do {								\
		if (!(cond)) {						\
			fprintf(stderr, "%s:%d: fuzz assertion failed: %s\n", \
				__FILE__, __LINE__, #cond);		\
			abort();					\
		}							\
	} while (0)

/* The input as a NUL-terminated copy (for parsers that want a string);
 * free() it. */
static inline char *fuzz_cstr(const uint8_t *data, size_t size)
{
	char *s = xmalloc(size + 1);

	memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

/* What goes into result.json must be JSON again when read back, and
 * valid UTF-8 without control characters (lib/util.h, text_is_clean). */
static inline void fuzz_check_json(json_object *o)
{
	const char *s = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PRETTY);
	json_object *back = json_tokener_parse(s);

	FUZZ_ASSERT(text_is_clean(s, strlen(s), 1));
	FUZZ_ASSERT(back != NULL || json_object_is_type(o, json_type_null));
	json_object_put(back);
}

/* Errors go nowhere: a parser's message for a bad input is expected. */
__attribute__((constructor)) static inline void fuzz_quiet(void)
{
	util_quiet = 1;
}

#endif
