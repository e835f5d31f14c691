// The CA kube-controller-manager signs with (--cluster-signing-cert-file and
// --cluster-signing-key-file; kubeadm points both at the cluster CA). The
// host hands the PEM texts to the core as a function (the key never enters
// an API object, so the browser's UI cannot show it); here they become the
// CA's subject, key identifier and expiry, and a WebCrypto signing key.
// Keys: PKCS#8 ("PRIVATE KEY"), or PKCS#1 RSA / SEC1 EC keys as kubeadm and
// openssl write them, ECDSA (P-256, P-384, P-521) or RSA.

import { nullValue } from './der-writer';
import { objectIdentifier, octetString, sequence, smallInteger, type Bytes } from '../root-ca/der';
import { childrenOf, content, oidOf, pemBlocks, raw, readElement } from './der-reader';
import { certificateNotAfter } from './certificate-expiry';

/** The PEM texts of the signing CA. */
export interface SigningKeyPair {
  readonly certificate: string;
  readonly privateKey: string;
}

export interface ClusterSigningOptions {
  /** The signing CA (absent: the signer is not started, as kube-controller-manager without signing files). */
  readonly keyPair?: () => Promise<SigningKeyPair>;
  /** --cluster-signing-duration (default one year). */
  readonly durationMs?: number;
}

export interface SigningCA {
  readonly certificatePem: string;
  readonly subjectDer: Uint8Array;
  /** The CA's subject key identifier (the authority key identifier of what it signs), when it has one. */
  readonly subjectKeyId?: Uint8Array;
  readonly notAfter: number;
  readonly key: CryptoKey;
  /** The signature algorithm of what it signs: OID, WebCrypto parameters, and whether it is ECDSA (DER-wrapped). */
  readonly algorithmDer: Uint8Array;
  readonly signParams: { readonly name: string; readonly hash?: string };
  readonly ecdsaSize?: number;
}

const OID = {
  ecPublicKey: '1.2.840.10045.2.1',
  rsaEncryption: '1.2.840.113549.1.1.1',
  subjectKeyIdentifier: '2.5.29.14',
};

const CURVES: Record<string, { name: string; size: number; hash: string; signature: string }> = {
  '1.2.840.10045.3.1.7': { name: 'P-256', size: 32, hash: 'SHA-256', signature: '1.2.840.10045.4.3.2' },
  '1.3.132.0.34': { name: 'P-384', size: 48, hash: 'SHA-384', signature: '1.2.840.10045.4.3.3' },
  '1.3.132.0.35': { name: 'P-521', size: 66, hash: 'SHA-512', signature: '1.2.840.10045.4.3.4' },
};
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';

function parseCACertificate(pem: string): { subjectDer: Uint8Array; subjectKeyId?: Uint8Array; notAfter: number } {
  const [der] = pemBlocks(pem, 'CERTIFICATE');
  if (!der) throw new Error('the cluster signing certificate holds no CERTIFICATE block');
  const cert = readElement(der, 0);
  const tbs = childrenOf(der, cert)[0]!;
  const fields = childrenOf(der, tbs);
  const rest = fields[0]?.tag === 0xa0 ? fields.slice(1) : fields;
  // serial, signature algorithm, issuer, validity, subject, spki, then optional [1] [2] [3].
  const [, , , validityElement, subject] = rest;
  if (!validityElement || !subject) throw new Error('malformed cluster signing certificate');
  let subjectKeyId: Uint8Array | undefined;
  const extensions = rest.find((f) => f.tag === 0xa3);
  if (extensions) {
    for (const ext of childrenOf(der, childrenOf(der, extensions)[0]!)) {
      const parts = childrenOf(der, ext);
      if (parts[0] && oidOf(der, parts[0]) === OID.subjectKeyIdentifier) {
        const inner = content(der, parts[parts.length - 1]!);
        subjectKeyId = content(inner, readElement(inner, 0));
      }
    }
  }
  return { subjectDer: raw(der, subject), ...(subjectKeyId ? { subjectKeyId } : {}), notAfter: certificateNotAfter(der) };
}

/** PKCS#8 bytes and the key's algorithm, from any of the three PEM forms. */
function pkcs8Of(pem: string): { pkcs8: Bytes; keyType: string; curveOid?: string } {
  const [pkcs8] = pemBlocks(pem, 'PRIVATE KEY');
  if (pkcs8) {
    const info = readElement(pkcs8, 0);
    const algorithm = childrenOf(pkcs8, info)[1]!;
    const [keyOid, params] = childrenOf(pkcs8, algorithm);
    const keyType = oidOf(pkcs8, keyOid!);
    return { pkcs8, keyType, ...(keyType === OID.ecPublicKey && params ? { curveOid: oidOf(pkcs8, params) } : {}) };
  }
  const [rsa] = pemBlocks(pem, 'RSA PRIVATE KEY');
  if (rsa) return { pkcs8: sequence(smallInteger(0), sequence(objectIdentifier(OID.rsaEncryption), nullValue()), octetString(rsa)), keyType: OID.rsaEncryption };
  const [ec] = pemBlocks(pem, 'EC PRIVATE KEY');
  if (ec) {
    // ECPrivateKey: version, key, [0] curve, [1] public key.
    const params = childrenOf(ec, readElement(ec, 0)).find((e) => e.tag === 0xa0);
    if (!params) throw new Error('the cluster signing key names no curve');
    const curveOid = oidOf(ec, childrenOf(ec, params)[0]!);
    return { pkcs8: sequence(smallInteger(0), sequence(objectIdentifier(OID.ecPublicKey), objectIdentifier(curveOid)), octetString(ec)), keyType: OID.ecPublicKey, curveOid };
  }
  throw new Error('the cluster signing key holds no private key block');
}

export async function loadSigningCA(pair: SigningKeyPair): Promise<SigningCA> {
  const cert = parseCACertificate(pair.certificate);
  const { pkcs8, keyType, curveOid } = pkcs8Of(pair.privateKey);
  const keyBytes = new Uint8Array(pkcs8);
  if (keyType === OID.ecPublicKey) {
    const curve = curveOid ? CURVES[curveOid] : undefined;
    if (!curve) throw new Error('the cluster signing key is on an unsupported curve');
    const key = await crypto.subtle.importKey('pkcs8', keyBytes, { name: 'ECDSA', namedCurve: curve.name }, false, ['sign']);
    return {
      certificatePem: pair.certificate,
      ...cert,
      key,
      algorithmDer: sequence(objectIdentifier(curve.signature)),
      signParams: { name: 'ECDSA', hash: curve.hash },
      ecdsaSize: curve.size,
    };
  }
  if (keyType === OID.rsaEncryption) {
    const key = await crypto.subtle.importKey('pkcs8', keyBytes, { name: 'RSASSA-PKCS1-v1_5', hash: 'SHA-256' }, false, ['sign']);
    return { certificatePem: pair.certificate, ...cert, key, algorithmDer: sequence(objectIdentifier(SHA256_WITH_RSA), nullValue()), signParams: { name: 'RSASSA-PKCS1-v1_5' } };
  }
  throw new Error('the cluster signing key is neither ECDSA nor RSA');
}
