#include <archive.h>
#include <archive_entry.h>

/* The entry types archive_entry_filetype gives (macros with a cast, which Swift does not import). */
static const unsigned int carchive_regular = AE_IFREG;
static const unsigned int carchive_directory = AE_IFDIR;
static const unsigned int carchive_symlink = AE_IFLNK;
