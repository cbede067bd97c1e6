// libqrencode (Debian's libqrencode-dev): the web delegate prints its URL as a QR code.
#include <qrencode.h>
