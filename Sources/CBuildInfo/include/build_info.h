#ifndef IMGDIFF_BUILD_INFO_H
#define IMGDIFF_BUILD_INFO_H

/* The commit imgdiff was built from: scripts/package and scripts/imgdiff pass
 * -Xcc -DIMGDIFF_COMMIT="<hash>"; any other build says "unknown". */
const char *imgdiff_build_commit(void);

#endif
