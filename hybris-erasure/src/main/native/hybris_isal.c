/*
 * JNI bridge from io.hybris.erasure.IsalNative to ISA-L's Reed-Solomon routines (ec_init_tables, ec_encode_data).
 * Java passes the coefficient matrix (our fixed Cauchy code, or a decoding matrix derived from it) and byte arrays;
 * the arrays are pinned with GetPrimitiveArrayCritical for the duration of the call, so no bytes are copied.
 */
#include <jni.h>
#include <stdlib.h>
#include <isa-l/erasure_code.h>

#include "io_hybris_erasure_IsalNative.h"

#define MAX_CHUNKS 256

JNIEXPORT void JNICALL Java_io_hybris_erasure_IsalNative_initTables(JNIEnv *env, jclass cls, jint sources,
                                                                    jint targets, jbyteArray matrix,
                                                                    jbyteArray tables) {
    (void) cls;
    jbyte *m = (*env)->GetByteArrayElements(env, matrix, NULL);
    if (m == NULL) {
        return;
    }
    jbyte *t = (*env)->GetByteArrayElements(env, tables, NULL);
    if (t == NULL) {
        (*env)->ReleaseByteArrayElements(env, matrix, m, JNI_ABORT);
        return;
    }
    ec_init_tables(sources, targets, (unsigned char *) m, (unsigned char *) t);
    (*env)->ReleaseByteArrayElements(env, tables, t, 0);
    (*env)->ReleaseByteArrayElements(env, matrix, m, JNI_ABORT);
}

JNIEXPORT void JNICALL Java_io_hybris_erasure_IsalNative_encode(JNIEnv *env, jclass cls, jint length, jint sources,
                                                                jint targets, jbyteArray tables, jobjectArray in,
                                                                jobjectArray out) {
    (void) cls;
    jbyteArray arrays[2 * MAX_CHUNKS + 1];
    unsigned char *pointers[2 * MAX_CHUNKS + 1];
    int n = sources + targets;
    if (sources < 1 || targets < 1 || n > 2 * MAX_CHUNKS) {
        jclass iae = (*env)->FindClass(env, "java/lang/IllegalArgumentException");
        if (iae != NULL) {
            (*env)->ThrowNew(env, iae, "native coder: bad chunk counts");
        }
        return;
    }
    if ((*env)->EnsureLocalCapacity(env, n + 1) != 0) {
        return;
    }
    /* Collect every array reference before entering the critical regions (no JNI calls allowed inside). */
    for (int i = 0; i < sources; i++) {
        arrays[i] = (jbyteArray) (*env)->GetObjectArrayElement(env, in, i);
    }
    for (int i = 0; i < targets; i++) {
        arrays[sources + i] = (jbyteArray) (*env)->GetObjectArrayElement(env, out, i);
    }
    arrays[n] = tables;
    if ((*env)->ExceptionCheck(env)) {
        return;
    }
    int pinned = 0;
    for (; pinned <= n; pinned++) {
        pointers[pinned] = (unsigned char *) (*env)->GetPrimitiveArrayCritical(env, arrays[pinned], NULL);
        if (pointers[pinned] == NULL) {
            break;
        }
    }
    if (pinned == n + 1) {
        ec_encode_data(length, sources, targets, pointers[n], pointers, pointers + sources);
    }
    for (int i = pinned - 1; i >= 0; i--) {
        /* inputs and tables are unchanged: JNI_ABORT skips a copy-back if the VM had to copy */
        jint mode = (i >= sources && i < n) ? 0 : JNI_ABORT;
        (*env)->ReleasePrimitiveArrayCritical(env, arrays[i], pointers[i], mode);
    }
    if (pinned != n + 1 && !(*env)->ExceptionCheck(env)) {
        jclass oom = (*env)->FindClass(env, "java/lang/OutOfMemoryError");
        if (oom != NULL) {
            (*env)->ThrowNew(env, oom, "native coder: could not pin the chunk arrays");
        }
    }
}
