#include <gmime/gmime.h>

/* GMime's GObject type checks and casts are macros; these are them as functions for Swift. */
static inline int cgmime_is_multipart(GMimeObject *object) { return GMIME_IS_MULTIPART(object); }
static inline int cgmime_is_message_part(GMimeObject *object) { return GMIME_IS_MESSAGE_PART(object); }
static inline int cgmime_is_part(GMimeObject *object) { return GMIME_IS_PART(object); }
static inline GMimeMultipart *cgmime_multipart(GMimeObject *object) { return GMIME_MULTIPART(object); }
static inline GMimeMessagePart *cgmime_message_part(GMimeObject *object) { return GMIME_MESSAGE_PART(object); }
static inline GMimePart *cgmime_part(GMimeObject *object) { return GMIME_PART(object); }
static inline GMimeObject *cgmime_object(GMimeMessage *message) { return GMIME_OBJECT(message); }
static inline GMimeStreamMem *cgmime_stream_mem(GMimeStream *stream) { return GMIME_STREAM_MEM(stream); }
static inline void cgmime_unref(void *object) { g_object_unref(object); }
