package dev.fabrictwin.testing.kafka;

import java.io.IOException;
import java.io.OutputStream;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import dev.fabrictwin.kafka.embedded.SaslSslListener;

/**
 * A throw-away CA and a server certificate for 127.0.0.1 (IP SAN, so clients' hostname verification passes), written
 * as PKCS12 key and trust stores: made in each test run, so no key material is checked in or expires in the repo.
 */
public final class TestCertificates {

    private TestCertificates() {
    }

    /** Writes {@code server.p12} (key + chain) and {@code truststore.p12} (the CA) into {@code dir}. */
    public static SaslSslListener saslSsl(final Path dir, final String storePassword, final String superUser,
                                          final String superUserPassword) {
        try {
            final KeyPair ca = keyPair();
            final X500Name caName = new X500Name("CN=fabric-twin test CA");
            final X509Certificate caCert = sign(caName, ca, caName, ca.getPublic(), true);
            final KeyPair server = keyPair();
            final X509Certificate serverCert = sign(caName, ca, new X500Name("CN=127.0.0.1"), server.getPublic(), false);

            final Path keyStore = dir.resolve("server.p12");
            final KeyStore ks = KeyStore.getInstance("PKCS12");
            ks.load(null, null);
            ks.setKeyEntry("broker", server.getPrivate(), storePassword.toCharArray(),
                new Certificate[] {serverCert, caCert});
            store(ks, keyStore, storePassword);

            final Path trustStore = dir.resolve("truststore.p12");
            final KeyStore ts = KeyStore.getInstance("PKCS12");
            ts.load(null, null);
            ts.setCertificateEntry("ca", caCert);
            store(ts, trustStore, storePassword);
            return new SaslSslListener(keyStore, trustStore, storePassword, superUser, superUserPassword);
        } catch (GeneralSecurityException | IOException | OperatorCreationException e) {
            throw new IllegalStateException("cannot generate test certificates: " + e.getMessage(), e);
        }
    }

    private static KeyPair keyPair() throws GeneralSecurityException {
        final KeyPairGenerator g = KeyPairGenerator.getInstance("EC");
        g.initialize(256);
        return g.generateKeyPair();
    }

    private static X509Certificate sign(final X500Name issuer, final KeyPair issuerKeys, final X500Name subject,
                                        final PublicKey subjectKey, final boolean isCa)
        throws IOException, GeneralSecurityException, OperatorCreationException {
        final Instant now = Instant.now();
        final X509v3CertificateBuilder b = new JcaX509v3CertificateBuilder(issuer, BigInteger.valueOf(now.toEpochMilli()
            + (isCa ? 0 : 1)), Date.from(now.minus(Duration.ofHours(1))), Date.from(now.plus(Duration.ofDays(2))),
            subject, subjectKey);
        b.addExtension(Extension.basicConstraints, true, new BasicConstraints(isCa));
        if (isCa) {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
        } else {
            b.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyAgreement));
            b.addExtension(Extension.subjectAlternativeName, false,
                new GeneralNames(new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        }
        final PrivateKey signer = issuerKeys.getPrivate();
        return new JcaX509CertificateConverter().getCertificate(
            b.build(new JcaContentSignerBuilder("SHA256withECDSA").build(signer)));
    }

    private static void store(final KeyStore store, final Path file, final String password)
        throws IOException, GeneralSecurityException {
        try (OutputStream out = Files.newOutputStream(file)) {
            store.store(out, password.toCharArray());
        }
    }
}
