<?php
/**
 * "Check connection": asks the BFF, from the server, whether a page of this site may use the widget, and says
 * in words what is wrong when it may not.
 *
 * @package ClinicBooking
 */

if ( ! defined( 'ABSPATH' ) ) {
	exit;
}

/**
 * This site's origin as a browser sends it in the Origin header: scheme, host and any port of home_url().
 *
 * @return string
 */
function clinic_booking_site_origin() {
	$parts = wp_parse_url( home_url() );
	if ( ! is_array( $parts ) || empty( $parts['host'] ) ) {
		return '';
	}
	$scheme = isset( $parts['scheme'] ) ? strtolower( $parts['scheme'] ) : 'https';
	$port   = isset( $parts['port'] ) ? ':' . (int) $parts['port'] : '';
	return $scheme . '://' . strtolower( $parts['host'] ) . $port;
}

/**
 * Asks the BFF at `$base` its GET api/origin-check with this site's Origin, then that its widget script is there.
 *
 * @param string $base   The BFF's base URL, ending in a slash (the settings' widget_url).
 * @param string $origin The origin to ask about (this site's).
 * @return array{ok: bool, problem: string, message: string} problem: '', 'no_url', 'unreachable', 'not_widget',
 *               'origin_refused' or 'no_script'; message: the sentence to show.
 */
function clinic_booking_check_connection( $base, $origin ) {
	if ( '' === $base ) {
		return array(
			'ok'      => false,
			'problem' => 'no_url',
			'message' => __( 'Set the widget URL first, then check the connection.', 'clinic-booking' ),
		);
	}
	$check_url = $base . 'api/origin-check';
	$response  = wp_remote_get(
		$check_url,
		array(
			'timeout'     => 10,
			'redirection' => 2,
			'headers'     => array(
				'Origin' => $origin,
				'Accept' => 'application/json',
			),
		)
	);
	if ( is_wp_error( $response ) ) {
		return array(
			'ok'      => false,
			'problem' => 'unreachable',
			/* translators: 1: the URL asked, 2: the error WordPress's HTTP client gave. */
			'message' => sprintf( __( 'WordPress could not reach %1$s: %2$s. Check the widget URL, and that this server may connect to the BFF.', 'clinic-booking' ), $check_url, $response->get_error_message() ),
		);
	}
	$status = (int) wp_remote_retrieve_response_code( $response );
	$answer = json_decode( wp_remote_retrieve_body( $response ), true );
	$valid  = 200 === $status && is_array( $answer ) && true === ( isset( $answer['success'] ) ? $answer['success'] : null )
		&& isset( $answer['data'] ) && is_array( $answer['data'] ) && isset( $answer['data']['allowed'] ) && is_bool( $answer['data']['allowed'] );
	if ( ! $valid ) {
		return array(
			'ok'      => false,
			'problem' => 'not_widget',
			/* translators: 1: the URL asked, 2: the HTTP status it answered. */
			'message' => sprintf( __( '%1$s answered (HTTP %2$d), but not as a clinic-booking BFF does: this is not the widget\'s address. Use the BFF\'s own URL, such as https://book.example.com/ or, for a site of an agency\'s BFF, https://book.example.com/s/{site_id}/.', 'clinic-booking' ), $check_url, $status ),
		);
	}
	if ( ! $answer['data']['allowed'] ) {
		$bff_says = isset( $answer['message'] ) && is_string( $answer['message'] ) ? $answer['message'] : '';
		return array(
			'ok'      => false,
			'problem' => 'origin_refused',
			'message' => sprintf(
				/* translators: 1: this site's origin, e.g. https://www.clinic.example, 2: the BFF's own sentence. */
				__( 'The BFF does not allow this site\'s origin, so visitors\' browsers would refuse the widget: add %1$s to ALLOWED_ORIGINS, or for a site of an agency\'s BFF to its origins with `sites set-origins`. The BFF says: %2$s', 'clinic-booking' ),
				$origin,
				$bff_says
			),
		);
	}
	$script = wp_remote_head( $base . 'widget/clinic-booking.js', array( 'timeout' => 10 ) );
	if ( is_wp_error( $script ) || 200 !== (int) wp_remote_retrieve_response_code( $script ) ) {
		return array(
			'ok'      => false,
			'problem' => 'no_script',
			/* translators: %s: the widget script's URL. */
			'message' => sprintf( __( 'The BFF allows this site, but its widget script %s cannot be loaded: build the widget on the BFF (npm run build).', 'clinic-booking' ), $base . 'widget/clinic-booking.js' ),
		);
	}
	return array(
		'ok'      => true,
		'problem' => '',
		/* translators: 1: this site's origin, 2: the BFF's URL. */
		'message' => sprintf( __( 'Connected: %2$s serves the widget, and allows pages of %1$s to use it.', 'clinic-booking' ), $origin, $base ),
	);
}
