/*
 * golden.h: shared helpers of the data-driven codec tests: read a file, list
 * the case folders of a directory in name order, print a JSON difference.
 * Adding a case to tests/golden/ needs no code.
 */
#ifndef QUINTETO_TEST_GOLDEN_H
#define QUINTETO_TEST_GOLDEN_H

#include <dirent.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GOLDEN_CASES_MAX 512

static inline int golden_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Calls fn(dir/sub/<case>, <case>) for every case folder in name order; returns how many. */
static inline int golden_each(const char *dir, const char *sub,
			      void (*fn)(const char *path, const char *name))
{
	char path[1024], *names[GOLDEN_CASES_MAX];
	struct dirent *e;
	int n = 0;
	DIR *d;

	snprintf(path, sizeof(path), "%s/%s", dir, sub);
	d = opendir(path);
	if (!d)
		return 0;
	while ((e = readdir(d)) && n < GOLDEN_CASES_MAX)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	closedir(d);
	qsort(names, (size_t)n, sizeof(names[0]), golden_name_cmp);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "%s/%s/%s", dir, sub, names[i]);
		fn(path, names[i]);
		free(names[i]);
	}
	return n;
}

/* Loads dir/file as JSON (any value); NULL with a TAP comment if unreadable. */
static inline json_t *golden_load(const char *dir, const char *file)
{
	char path[1100];
	json_error_t err;
	json_t *j;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	j = json_load_file(path, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &err);
	if (!j)
		printf("# %s: %s (line %d)\n", path, err.text, err.line);
	return j;
}

static inline void golden_diff(const json_t *want, const json_t *got)
{
	char *w = json_dumps(want, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY);
	char *g = got ? json_dumps(got, JSON_COMPACT | JSON_SORT_KEYS | JSON_ENCODE_ANY) : NULL;

	printf("# expected %.600s\n#      got %.600s\n", w ? w : "?", g ? g : "(NULL)");
	free(w);
	free(g);
}

#endif
