package io.hybris;

/** A call was made on a {@link Hybris} client after {@link Hybris#close()}. */
public class ClientClosedException extends HybrisException {
    private static final long serialVersionUID = 1L;

    public ClientClosedException(String message) {
        super(message);
    }
}
