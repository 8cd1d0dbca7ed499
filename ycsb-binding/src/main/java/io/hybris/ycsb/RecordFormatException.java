package io.hybris.ycsb;

/** A stored value is not a well-formed record of {@link RecordCodec}'s format; the message says what is wrong. */
final class RecordFormatException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    RecordFormatException(String message) {
        super(message);
    }
}
